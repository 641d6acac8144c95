// A finished run's fault and bloat phases (lib/phases/report.ts), one row each: when it ran and what it did, the
// consumers' rate, the delivery latency and the backlog before, during and after it, dead tuples and sizes from its
// start to its end, and the time the run took to be back. The same words as the CLI's (lib/phases/words.ts).
import type { RunSummary } from "@/lib/measurement/summary";
import type { PhaseReport, PhaseWindow } from "@/lib/phases/report";
import { phaseText } from "@/lib/phases/shape";
import { recoveryWords } from "@/lib/phases/words";
import { fmtBytes, fmtInt, fmtLatency } from "@/lib/runs/format";
import { PHASE_COLOURS } from "../charts/PhaseBands";

const num1 = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** "480 → 0 → 750": a figure before, during and after the phase, "–" where a stretch has none. */
function threeWay(r: PhaseReport, of: (w: PhaseWindow) => string | undefined): string {
  return [r.before, r.during, r.after].map((w) => (w ? (of(w) ?? "–") : "–")).join(" → ");
}

const fromTo = (x: { start: number; end: number } | undefined, f: (n: number) => string) => (x ? `${f(x.start)} → ${f(x.end)}` : "not read");

export function PhasesPanel({ summary }: { summary: RunSummary }) {
  const phases = summary.phases ?? [];
  if (!phases.length) return null;
  return (
    <section className="panel" data-testid="phases">
      <h2>Phases</h2>
      <p className="muted" style={{ marginTop: 0 }}>
        Each figure is before → during → after the phase, over the whole seconds of the run on each side (a second across an edge is in neither); latencies are
        percentiles of the merged histograms of those seconds.
      </p>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Phase</th>
              <th>Ran (s)</th>
              <th>What it did</th>
              <th>Rate</th>
              <th>Latency p99</th>
              <th>Largest backlog</th>
              <th>Dead tuples</th>
              <th>Tables / indexes</th>
              <th>Recovery</th>
            </tr>
          </thead>
          <tbody>
            {phases.map((r) => (
              <tr key={phaseText(r.phase)} data-testid="phase-report" data-phase={r.phase.kind} data-recovery={r.recoverySec ?? ""}>
                <td>
                  <span style={{ display: "inline-block", width: 10, height: 10, borderRadius: 2, background: PHASE_COLOURS[r.phase.kind] }} />{" "}
                  <code>{phaseText(r.phase)}</code>
                </td>
                <td>{r.startedSec === null ? "never" : `${num1(r.startedSec)}–${r.endedSec === null ? "?" : num1(r.endedSec)}`}</td>
                <td>
                  {r.startedSec === null ? "" : r.did}
                  {r.problem && <div className="muted">{r.problem}</div>}
                </td>
                <td>
                  {threeWay(r, (w) => fmtInt(w.perSecond))} {r.rate.unit}/s <span className="muted">({r.rate.label})</span>
                </td>
                <td>
                  {threeWay(r, (w) => (w.latencyMs ? fmtLatency(w.latencyMs.p99) : undefined))}
                  {r.latency && <span className="muted"> ({r.latency.label})</span>}
                </td>
                <td>{threeWay(r, (w) => (w.backlogMax === undefined ? undefined : fmtInt(w.backlogMax)))}</td>
                <td>{fromTo(r.deadTuples, fmtInt)}</td>
                <td>
                  {fromTo(r.tableBytes, fmtBytes)} / {fromTo(r.indexBytes, fmtBytes)}
                </td>
                <td>{recoveryWords(r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
