"use client";
// What limited the run: the verdict's statement, the evidence it rests on as numbers against their thresholds,
// other limits that also held, what it could not see, and every rule's findings (folded). Live, the same
// rules run over the last seconds of the measured window once enough of it is in (lib/telemetry/live.ts).
import type { RunTelemetry } from "@/lib/telemetry/report";
import { evidenceText } from "@/lib/telemetry/report";
import { useRef } from "react";
import { LIVE_MIN_SECONDS, LIVE_STABLE_SECONDS, LiveVerdicts } from "@/lib/telemetry/live";
import { paceSpecOf } from "@/lib/telemetry/pace";
import type { Sample } from "@/lib/measurement/sample";
import { definitionOf, pacingOf, type WorkloadConfig } from "@/lib/workloads/config";
import { CATEGORY_LABELS, type Verdict } from "@/lib/telemetry/verdict";

/** The statement without its caution (shown on a line of its own below it). */
const headOf = (v: Verdict) => (v.caution && v.statement.endsWith(`; ${v.caution}`) ? v.statement.slice(0, -(v.caution.length + 2)) : v.statement);

export function VerdictPanel({ verdict, missing, live }: { verdict: Verdict; missing?: string[]; live?: string }) {
  return (
    <section className="panel stack" aria-labelledby="verdict-heading" data-testid="verdict">
      <h2 id="verdict-heading" className="chart-title">
        Why this number{live ? <span className="hint"> {live}</span> : null}
      </h2>
      <p data-testid="verdict-statement">
        <strong data-testid="verdict-category">{CATEGORY_LABELS[verdict.category]}</strong>: {headOf(verdict).replace(/^[^:]*:\s*/, "")}
      </p>
      {/* The runner's load where it was not the limit: evidence inside the verdict, a caution on the latencies. */}
      {verdict.caution && (
        <p className="small" data-testid="verdict-caution">
          Caution: {verdict.caution}.
        </p>
      )}
      {verdict.evidence.length > 0 && (
        <ul className="small" data-testid="verdict-evidence">
          {verdict.evidence.map((e) => (
            <li key={e.what}>{evidenceText(e)}</li>
          ))}
        </ul>
      )}
      {verdict.also.length > 0 && <p className="small">Also held: {verdict.also.map((c) => CATEGORY_LABELS[c]).join(", ")}.</p>}
      {[...verdict.blindSpots, ...(missing ?? [])].length > 0 && (
        <ul className="small hint">
          {verdict.blindSpots.map((b) => (
            <li key={b}>Blind spot: {b}</li>
          ))}
          {(missing ?? []).map((m) => (
            <li key={m}>Not measured: {m}</li>
          ))}
        </ul>
      )}
      <details>
        <summary className="small">Every rule and its numbers</summary>
        <table className="data compact">
          <thead>
            <tr>
              <th scope="col">rule</th>
              <th scope="col">held</th>
              <th scope="col">evidence</th>
            </tr>
          </thead>
          <tbody>
            {verdict.findings.map((f) => (
              <tr key={f.category}>
                <th scope="row">{CATEGORY_LABELS[f.category]}</th>
                <td>{f.matched ? "yes" : "no"}</td>
                <td>{f.evidence.length ? f.evidence.map(evidenceText).join("; ") : "not applicable (nothing to judge)"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

/** The finished run's verdict, from its summary. */
export function RunVerdict({ telemetry }: { telemetry: RunTelemetry }) {
  return <VerdictPanel verdict={telemetry.verdict} missing={telemetry.info.missing} />;
}

/**
 * Live: the verdict over the last measured seconds, once enough of them are in, kept until another category holds
 * for LIVE_STABLE_SECONDS in a row (lib/telemetry/live.ts); nothing for a run without telemetry.
 */
export function LiveVerdict({ samples, config }: { samples: Sample[]; config: WorkloadConfig }) {
  const tracker = useRef<{ key: string; live: LiveVerdicts } | null>(null);
  const measured = samples.filter((s) => s.phase === "measuring");
  const key = JSON.stringify(config);
  // One tracker a run, fed only the samples it has not seen (a fresh one when the samples restart).
  if (!tracker.current || tracker.current.key !== key || tracker.current.live.count > measured.length) {
    tracker.current = { key, live: new LiveVerdicts(paceSpecOf(pacingOf(config), definitionOf(config).metrics)) };
  }
  const t = tracker.current.live;
  for (const s of measured.slice(t.count)) t.push(s.metrics);
  if (!samples.some((s) => s.metrics.telemetry)) return null;
  const live = t.current();
  if (!live)
    return (
      <p className="hint" data-testid="verdict-pending">
        Why this number: the verdict appears once {LIVE_MIN_SECONDS} measured seconds of server telemetry are in.
      </p>
    );
  const pending = live.pending ? `; the newest ${Math.round(live.pending.seconds)} s point to ${CATEGORY_LABELS[live.pending.category]}` : "";
  return (
    <VerdictPanel
      verdict={live.verdict}
      live={`live, over the last ${Math.round(live.seconds)} s of the measured window; unchanged since ${Math.round(live.sinceSec)} s into it (it changes once another limit holds ${LIVE_STABLE_SECONDS} s in a row)${pending}`}
    />
  );
}
