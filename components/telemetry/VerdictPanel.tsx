"use client";
// What limited the run: the verdict's statement, the evidence it rests on as numbers against their thresholds,
// other limits that also held, what it could not see, and every rule's findings (folded). Live, the same
// rules run over the last seconds of the measured window once enough of it is in (lib/telemetry/live.ts).
import type { RunTelemetry } from "@/lib/telemetry/report";
import { evidenceText } from "@/lib/telemetry/report";
import { LIVE_MIN_SECONDS, liveVerdict } from "@/lib/telemetry/live";
import type { TelemetrySample } from "@/lib/telemetry/shape";
import type { Operations } from "@/lib/measurement/metrics";
import { CATEGORY_LABELS, type Verdict } from "@/lib/telemetry/verdict";

export function VerdictPanel({ verdict, missing, live }: { verdict: Verdict; missing?: string[]; live?: string }) {
  return (
    <section className="panel stack" aria-labelledby="verdict-heading" data-testid="verdict">
      <h2 id="verdict-heading" className="chart-title">
        Why this number{live ? <span className="hint"> {live}</span> : null}
      </h2>
      <p data-testid="verdict-statement">
        <strong data-testid="verdict-category">{CATEGORY_LABELS[verdict.category]}</strong>: {verdict.statement.replace(/^[^:]*:\s*/, "")}
      </p>
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

/** The shape of a stored sample the live verdict reads (lib/measurement's Sample with its telemetry). */
interface LiveSample {
  phase: string;
  metrics: { intervalSec: number; operations: Operations; telemetry?: TelemetrySample };
}

/** Live: the verdict over the last measured seconds, once enough of them are in; nothing for a run without telemetry. */
export function LiveVerdict({ samples, throttlePerSec }: { samples: LiveSample[]; throttlePerSec: number }) {
  const measured = samples.filter((s) => s.phase === "measuring");
  if (!samples.some((s) => s.metrics.telemetry)) return null;
  const live = liveVerdict(
    measured.map((s) => ({ telemetry: s.metrics.telemetry, writes: s.metrics.operations.write?.count ?? 0, intervalSec: s.metrics.intervalSec })),
    throttlePerSec,
  );
  if (!live)
    return (
      <p className="hint" data-testid="verdict-pending">
        Why this number: the verdict appears once {LIVE_MIN_SECONDS} measured seconds of server telemetry are in.
      </p>
    );
  return <VerdictPanel verdict={live.verdict} live={`live, over the last ${Math.round(live.seconds)} s of the measured window`} />;
}
