"use client";
// What the New run form's panels that launch a set of runs share (a queues sweep, a synchronous commit ladder, a
// repeat): their props, the count field each asks for, the POST that queues the set and opens its page, and the
// launch button with the server's refusal.
import { useRouter } from "next/navigation";
import { useState } from "react";

/** What a panel that launches a set of runs from the form gets: the form's input, its target, whether the form
 *  parses, and how long one run loads the target. */
export interface SetPanelProps {
  input: Record<string, unknown>;
  targetId: string;
  ready: boolean;
  runSeconds: number | null;
  /** The form's name, tags and notes (./LabelsPanel.tsx): the set's runs get them, each name with its place. */
  labels: Record<string, string>;
}

/** A count typed in a set panel: a whole number as a number, anything else as typed (the server names what is wrong). */
export const countValue = (text: string): number | string => (/^\s*\d+\s*$/.test(text) ? Number(text) : text);

/** What the server's refusal of a set says: its fields' messages, else its error, else its status. */
export async function refusalOf(r: Response | null): Promise<string> {
  if (!r) return "the app did not answer";
  const body = (await r.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
  return Object.values(body.fields ?? {}).join("; ") || (body.error ?? `the server answered HTTP ${r.status}`);
}

/**
 * The POST that queues a set (`url`, e.g. /api/runs/repeat) and then opens the set's page (the answer's `url`); while
 * it is on its way `launching`, and after a refusal `error` says why.
 */
export function useSetPost(url: string) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [launching, setLaunching] = useState(false);
  const launch = async (body: Record<string, unknown>) => {
    setLaunching(true);
    setError(null);
    const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => null);
    if (r?.status === 201) {
      router.push(((await r.json()) as { url: string }).url);
      return;
    }
    setError(await refusalOf(r));
    setLaunching(false);
  };
  return { launch, launching, error };
}

/** A set panel's count (repeats, runs): a number field with its hint, marked invalid when `ok` is false. */
export function CountField(props: {
  id: string;
  label: string;
  min: number;
  max: number;
  value: string;
  onChange: (v: string) => void;
  ok: boolean;
  hint: string;
  disabled: boolean;
}) {
  const { id, label, min, max, value, onChange, ok, hint, disabled } = props;
  return (
    <div className="fieldbox">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        step={1}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!ok}
        aria-describedby={`${id}-hint`}
        disabled={disabled}
        style={{ width: "5em" }}
      />
      <span className="hint" id={`${id}-hint`}>
        {hint}
      </span>
    </div>
  );
}

/** The launch of a set: its button, a hint while the form does not parse, and the server's refusal. */
export function SetLaunch({
  label,
  launching,
  disabled,
  ready,
  error,
  onClick,
  testId,
  className,
}: {
  label: string;
  launching: boolean;
  disabled: boolean;
  ready: boolean;
  error: string | null;
  onClick: () => void;
  testId: string;
  className?: string;
}) {
  return (
    <>
      <button type="button" className={className} onClick={onClick} disabled={disabled} data-testid={testId}>
        {launching ? "Launching…" : label}
      </button>
      {!ready && <p className="hint">Fix the marked fields above first.</p>}
      {error && (
        <div className="alert bad small" role="alert">
          {error}
        </div>
      )}
    </>
  );
}
