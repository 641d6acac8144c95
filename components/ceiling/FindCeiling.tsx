"use client";
// "Find the ceiling" on the New run form: the same workload config and target as the run above, and the
// search's own settings (the latency goal, the metric it is on, the step length, the bounds), checked with
// the same schema as the API (lib/ceiling/settings.ts). It queues a ceiling search and opens its page.
import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import { goalMetrics } from "@/lib/ceiling/facts";
import { searchUnit } from "@/lib/ceiling/rate";
import { perSecond } from "@/lib/words";
import { fmtDuration } from "@/lib/runs/format";
import {
  CeilingSettings,
  ceilingSecondsAtMost,
  DEFAULT_MAX_RATE,
  DEFAULT_START_RATE,
  DEFAULT_STEP_SECONDS,
  MIN_STEP_SECONDS,
  confirmSecondsOf,
  DEFAULT_CONFIRM_SECONDS,
  parseCeilingSettings,
} from "@/lib/ceiling/settings";
import { MAX_CONFIRMATIONS, SEARCH_DEFAULTS } from "@/lib/ceiling/search";
import { definitionOf, MAX_DRAIN_SECONDS } from "@/lib/workloads/config";

type Values = Record<"slo" | "metric" | "stepSeconds" | "confirmSeconds" | "startRate" | "maxRate" | "precisionPercent" | "maxSteps", string>;

/** `perSecond`: a rate, labelled in the workload's paced unit ("Start rate (row/s)"). */
const FIELDS: { name: keyof Values; label: string; hint: string; numeric: boolean; perSecond?: true }[] = [
  { name: "slo", label: "Latency goal", hint: "e.g. p99<50ms, or p50<10ms,p99<50ms", numeric: false },
  { name: "stepSeconds", label: "Step (s)", hint: `each step's measured window, at least ${MIN_STEP_SECONDS} s, after the run's warm-up`, numeric: true },
  {
    name: "confirmSeconds",
    label: "Confirmation (s)",
    hint: `the rate found is run this long before it is reported; empty: ${DEFAULT_CONFIRM_SECONDS} s or 4 steps, whichever is longer`,
    numeric: true,
  },
  { name: "startRate", label: "Start rate", hint: "the first step; doubled while sustained", numeric: true, perSecond: true },
  { name: "maxRate", label: "Maximum rate", hint: "never tried above", numeric: true, perSecond: true },
  { name: "precisionPercent", label: "Precision (%)", hint: "stop once the bracket is this narrow", numeric: true },
  { name: "maxSteps", label: "Maximum steps", hint: "stop after this many steps", numeric: true },
];

/** A typed number, or the text itself (the schema then names it: "Step must be a whole number"). */
const num = (v: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** `warmupSeconds`: the run config's warm-up, which every step repeats (null while the run's fields are invalid). */
export function FindCeiling({
  kind,
  config,
  configOk,
  targetId,
  warmupSeconds,
  labels = {},
}: {
  kind: string;
  config: unknown;
  configOk: boolean;
  targetId: string;
  warmupSeconds: number | null;
  /** The form's name, tags and notes (components/run-form/LabelsPanel.tsx), given to the search. */
  labels?: Record<string, string>;
}) {
  const router = useRouter();
  const metrics = useMemo(() => goalMetrics(definitionOf({ kind }).metrics), [kind]);
  // The rates are in what the workload paces ("msg/s", "row/s", "req/s", "workflow/s"), as its pacing declares.
  const perSec = useMemo(() => perSecond(searchUnit(kind)), [kind]);
  const [values, setValues] = useState<Values>({
    slo: "p99<50ms",
    metric: "",
    stepSeconds: String(DEFAULT_STEP_SECONDS),
    confirmSeconds: "",
    startRate: String(DEFAULT_START_RATE),
    maxRate: String(DEFAULT_MAX_RATE),
    precisionPercent: String(SEARCH_DEFAULTS.precision * 100),
    maxSteps: String(SEARCH_DEFAULTS.maxSteps),
  });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  const settings = useMemo(() => {
    const out: Record<string, unknown> = { slo: values.slo };
    if (values.metric && metrics.some((m) => m.name === values.metric)) out.metric = values.metric;
    // An empty confirmation length is the default one.
    for (const f of FIELDS) if (f.numeric && !(f.name === "confirmSeconds" && values.confirmSeconds.trim() === "")) out[f.name] = num(values[f.name]);
    return out;
  }, [values, metrics]);
  const parsed = useMemo(() => parseCeilingSettings(settings, kind), [settings, kind]);
  const errors = { ...(tried && !parsed.ok ? parsed.errors : {}), ...serverErrors };

  const start = async () => {
    setTried(true);
    setServerErrors({});
    if (!parsed.ok || !configOk) return;
    setBusy(true);
    const r = await fetch("/api/ceilings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ config, settings: CeilingSettings.parse(settings), targetId, ...labels }),
    }).catch(() => null);
    if (r?.status === 201) {
      router.push(((await r.json()) as { url: string }).url);
      return;
    }
    setBusy(false);
    if (!r) {
      setServerErrors({ _: "The app did not answer. Is `npm start` still running?" });
      return;
    }
    const body = (await r.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
    setServerErrors(body.fields ?? { _: body.error ?? `the server answered HTTP ${r.status}` });
  };
  const general = Object.entries(errors).filter(([k]) => !FIELDS.some((f) => f.name === k) && k !== "metric");

  return (
    <details className="find-ceiling" data-testid="find-ceiling">
      <summary>Find the ceiling</summary>
      <p className="hint">
        Runs this workload against the same target in constant-rate steps, doubling the rate while each step is sustained, then narrowing in, and ends at the
        highest rate it sustains under the goal. Each step warms up first; the run&rsquo;s measured duration and rate limit above are not used.
      </p>
      <div className="stack">
        {FIELDS.slice(0, 1).map((f) => (
          <Field
            key={f.name}
            f={f}
            perSec={perSec}
            value={values.slo}
            error={errors.slo}
            onChange={(v) => setValues((o) => ({ ...o, slo: v }))}
            onEnter={start}
          />
        ))}
        <div className="fieldbox">
          <label htmlFor="ceiling-metric">Goal on</label>
          <select
            id="ceiling-metric"
            value={values.metric}
            onChange={(e) => setValues((o) => ({ ...o, metric: e.target.value }))}
            aria-invalid={errors.metric ? true : undefined}
            aria-describedby="ceiling-metric-hint"
          >
            <option value="">{metrics[0] ? `${metrics[0].label} (default)` : "(none)"}</option>
            {metrics.slice(1).map((m) => (
              <option key={m.name} value={m.name}>
                {m.label}
              </option>
            ))}
          </select>
          <span className="hint" id="ceiling-metric-hint">
            checked from each item&rsquo;s scheduled time where the run records it (coordinated omission corrected)
          </span>
          {errors.metric && <span className="field-error">{errors.metric}</span>}
        </div>
        <div className="grid grid-2">
          {FIELDS.slice(1).map((f) => (
            <Field
              key={f.name}
              f={f}
              perSec={perSec}
              value={values[f.name]}
              error={errors[f.name]}
              onChange={(v) => {
                setValues((o) => ({ ...o, [f.name]: v }));
                setServerErrors(({ [f.name]: _drop, ...rest }) => rest);
              }}
              onEnter={start}
            />
          ))}
        </div>
        {!configOk && tried && <p className="field-error">Fix the run&rsquo;s fields marked in red first: every step runs that config.</p>}
        {general.length > 0 && (
          <div className="alert bad" role="alert">
            {general.map(([k, m]) => (
              <div key={k}>{m}</div>
            ))}
          </div>
        )}
        {parsed.ok && configOk && warmupSeconds !== null && <SearchLength settings={parsed.settings} warmupSeconds={warmupSeconds} />}
        <button type="button" className="btn primary" onClick={start} disabled={busy}>
          {busy ? "Checking the target and starting…" : "Find the ceiling"}
        </button>
      </div>
    </details>
  );
}

/** The search's length as set before it starts, as the run form states a run's (beside Launch), and what can add to it. */
function SearchLength({ settings, warmupSeconds }: { settings: CeilingSettings; warmupSeconds: number }) {
  const total = ceilingSecondsAtMost(settings, warmupSeconds);
  return (
    <div className="total-time" data-testid="ceiling-total-time" data-seconds={total}>
      <div className="total-figure">{fmtDuration(total)} as set</div>
      <div className="hint">
        At most {settings.maxSteps} {settings.maxSteps === 1 ? "step" : "steps"} × ({fmtDuration(warmupSeconds)} warm-up + {fmtDuration(settings.stepSeconds)}{" "}
        measured + up to {fmtDuration(MAX_DRAIN_SECONDS)} draining), and up to {MAX_CONFIRMATIONS} confirmation runs of{" "}
        {fmtDuration(confirmSecondsOf(settings))}, plus each step&rsquo;s setup and verification; it stops sooner once the bracket is within{" "}
        {settings.precisionPercent}% and the rate found is confirmed. It runs longer where the evidence is not yet clear: a step whose samples cannot yet decide
        the goal runs again (up to 3 more runs of at most 60 s each), a latency miss the server does not explain is measured once more, and a step the runner
        was starved in is run again.
      </div>
    </div>
  );
}

function Field({
  f,
  perSec,
  value,
  error,
  onChange,
  onEnter,
}: {
  f: (typeof FIELDS)[number];
  perSec: string;
  value: string;
  error?: string;
  onChange: (v: string) => void;
  onEnter: () => void;
}) {
  const id = useId();
  return (
    <div className="fieldbox">
      <label htmlFor={id}>{f.perSecond ? `${f.label} (${perSec})` : f.label}</label>
      <input
        id={id}
        type="text"
        inputMode={f.numeric ? "decimal" : "text"}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Enter here starts the search, never the run form around it.
          if (e.key === "Enter") {
            e.preventDefault();
            onEnter();
          }
        }}
      />
      <span className="hint" id={`${id}-hint`}>
        {f.hint}
      </span>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
