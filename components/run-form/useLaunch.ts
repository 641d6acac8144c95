// Launching from the New run form: a form that does not parse focuses its first bad field; a run that loads the
// target for more than 5 minutes asks first (and any change to the form withdraws the question); the server's
// refusal is shown beside the field it names. "Run baseline and modded" (lib/compare/ab.ts) sends N pairs of both variants.
import { useRouter } from "next/navigation";
import { type RefObject, useEffect, useRef, useState } from "react";
import { DEFAULT_PAIRS } from "@/lib/compare/ab-order";
import type { FormState } from "./useFormState";
import type { LabelsState } from "./LabelsPanel";

/** The pairs field as sent: a number when it reads as one (the server names anything out of range), else the text. */
const pairsNumber = (v: string): number | string => (/^\s*\d+\s*$/.test(v) ? Number(v) : v);

export function useLaunch({
  form,
  targetId,
  formRef,
  onTargetRefused,
  labels,
}: {
  form: FormState;
  /** The run's name and tags (./LabelsPanel.tsx): sent with the run, or with the A/B (its runs get them too). */
  labels: LabelsState;
  targetId: string;
  formRef: RefObject<HTMLFormElement | null>;
  /** The server refused the target or its connections: its info is fetched again. */
  onTargetRefused: () => void;
}) {
  const router = useRouter();
  const [launching, setLaunching] = useState(false);
  /** The exact request a long run was confirmed for; any change to the form asks again. */
  const [confirmedFor, setConfirmedFor] = useState<string | null>(null);
  // "Run baseline and modded": both variants of the config, queued back to back, then compared.
  const [pair, setPair] = useState(false);
  // How many baseline-and-modded pairs an A/B runs (lib/compare/ab-order.ts); the server checks the range.
  const [pairs, setPairs] = useState(String(DEFAULT_PAIRS));
  const confirmRef = useRef<HTMLDivElement>(null);

  const requestKey = JSON.stringify({ input: form.input, targetId });
  const confirming = form.isLong && confirmedFor === requestKey;
  // Any change to the run withdraws the question: coming back to the same values must not re-open it.
  useEffect(() => setConfirmedFor((c) => (c === null || c === requestKey ? c : null)), [requestKey]);

  const launch = async (e: React.FormEvent, asPair = false) => {
    e.preventDefault();
    setPair(asPair);
    form.setSubmitted(true);
    const badLabels = Object.keys(labels.errors).length > 0;
    if (!form.parsed.ok || badLabels) {
      focusFirstError(formRef.current);
      return;
    }
    if (form.isLong && !confirming) {
      // A run longer than 5 minutes is never a surprise: say how long, and launch only on a second, explicit yes.
      setConfirmedFor(requestKey);
      setTimeout(() => confirmRef.current?.focus(), 0);
      return;
    }
    await send(asPair);
  };

  const send = async (asPair = pair) => {
    setLaunching(true);
    form.setServerErrors({});
    const r = await fetch(asPair ? "/api/runs/ab" : "/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        asPair ? { config: form.input, targetId, pairs: pairsNumber(pairs), ...labels.body } : { config: form.input, targetId, ...labels.body },
      ),
    }).catch(() => null);
    if (r?.status === 201) {
      const { url } = (await r.json()) as { url: string };
      router.push(url);
      return;
    }
    setLaunching(false);
    setConfirmedFor(null);
    if (!r) {
      form.setServerErrors({ _: "The app did not answer. Is `npm start` still running?" });
      return;
    }
    const body = (await r.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
    form.setServerErrors(body.fields ?? { _: body.error ?? `the server answered HTTP ${r.status}` });
    if (body.fields?.connections || body.fields?.targetId) onTargetRefused();
    setTimeout(() => focusFirstError(formRef.current), 0);
  };

  return { launching, pair, pairs, setPairs, confirming, confirmRef, launch, send, cancelConfirm: () => setConfirmedFor(null), labels: labels.body };
}

export type LaunchState = ReturnType<typeof useLaunch>;

function focusFirstError(form: HTMLFormElement | null) {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
