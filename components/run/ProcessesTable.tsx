// A run carried by several runner processes: per part where it ran, when it started against the barrier, its clock,
// its rates in the workload's words, its CPU and event-loop delay, the worst part marked and why
// (lib/measurement/part-view.ts, the words the CLI prints too). A run of one process renders nothing.
import { livePartRows, type PartRate, partsView } from "@/lib/measurement/part-view";
import type { Sample } from "@/lib/measurement/sample";
import type { RunSummary } from "@/lib/measurement/summary";
import { fmtLatency, fmtRate } from "@/lib/runs/format";
import { runnerLoadOf } from "@/lib/measurement/headline";

const signedMs = (ms: number) => `${ms >= 0 ? "+" : "−"}${fmtLatency(Math.abs(ms))}`;
const cpu = (cores: number | undefined) => (cores === undefined ? "–" : `${(100 * cores).toFixed(0)}%`);

/** Its rates, one per declared operation, under headers that carry the unit ("writes (msg/s)"). */
function Rates({ rates }: { rates: PartRate[] }) {
  return rates.map((r) => (
    <td key={r.name} className="num">
      {fmtRate(r.perSecond)}
    </td>
  ));
}

function RateHeaders({ rates }: { rates: PartRate[] }) {
  return rates.map((o) => (
    <th scope="col" className="num" key={o.name}>
      {o.label} ({o.unit}/s)
    </th>
  ));
}

/** The finished run's Processes table, under its merged figures. */
export function ProcessesTable({ summary }: { summary: RunSummary }) {
  const v = partsView(summary);
  if (!v) return null;
  const ops = v.rows[0].rates;
  // A part the client rule held for was the limit only when the run was (runnerRole: at its limit, the rate missed);
  // otherwise its delay is in the latencies.
  const role = runnerLoadOf(summary).role;
  return (
    <section className="panel" data-testid="processes">
      <h2>Processes</h2>
      <p className="muted small">
        {v.rows.length} runner processes on {v.hosts.join(", ")}; the figures above are their exact merge. Start skew: how late each began after the shared
        start; clock offset: its clock against the run's (on another host, with the drift it had by the end).
      </p>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">part</th>
            <th scope="col">host</th>
            <th scope="col" className="num">
              pid
            </th>
            <th scope="col" className="num">
              start skew
            </th>
            <th scope="col" className="num">
              clock offset
            </th>
            <RateHeaders rates={ops} />
            <th scope="col" className="num">
              runner CPU (of a core)
            </th>
            <th scope="col" className="num">
              event-loop delay (1% of the time)
            </th>
          </tr>
        </thead>
        <tbody>
          {v.rows.map((r) => (
            <tr key={r.part} data-testid={`process-${r.part}`} data-worst={r.worst || undefined} className={r.worst ? "worst" : undefined}>
              <th scope="row">
                {r.part}
                {r.worst && <strong> worst</strong>}
                {r.clientBound &&
                  (role === "limit" ? <span className="badge bad"> client-bound</span> : <span className="badge warn"> its delay in the latencies</span>)}
              </th>
              <td>{r.host}</td>
              <td className="num">{r.pid}</td>
              <td className="num">{fmtLatency(r.startSkewMs)}</td>
              <td className="num">
                {signedMs(r.clockOffsetMs)}
                {r.clockDriftMs !== undefined && <span className="muted"> (drift {signedMs(r.clockDriftMs)})</span>}
              </td>
              <Rates rates={r.rates} />
              <td className="num">{cpu(r.cpuCores)}</td>
              <td className="num">{r.exposedDelayMs === undefined ? "–" : fmtLatency(r.exposedDelayMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {v.worst !== null && (
        <p className="small" data-testid="worst-part">
          Worst part: {v.worst}, {v.why}.
        </p>
      )}
    </section>
  );
}

/** The live view per part: this second's rates, CPU and loop delay of each, the worst marked. */
export function LiveProcesses({ sample, workload }: { sample: Sample | undefined; workload: string }) {
  const rows = livePartRows(workload, sample?.metrics.processes);
  if (!rows) return null;
  const ops = rows[0].rates;
  return (
    <table className="data" data-testid="live-processes">
      <caption>Runner processes this second</caption>
      <thead>
        <tr>
          <th scope="col">part</th>
          <RateHeaders rates={ops} />
          <th scope="col" className="num">
            CPU (of a core)
          </th>
          <th scope="col" className="num">
            loop delay max
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.part} data-worst={r.worst || undefined}>
            <th scope="row">
              {r.part}
              {r.worst && <strong> worst</strong>}
            </th>
            <Rates rates={r.rates} />
            <td className="num">{cpu(r.cpuCores)}</td>
            <td className="num">{r.loopDelayMaxMs === undefined ? "–" : fmtLatency(r.loopDelayMaxMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
