// The newest one-second sample as a compact table: what the charts show, as numbers, for the operations,
// backlog and latencies the workload declares (workloads/<kind>/definition.ts metrics).
import { latencyMetrics, latencyOf, measureOf, metricModel, rateOperations, throughputOf } from "@/lib/measurement/operations";
import { fmtInt, fmtLatency, fmtMiB, fmtRate } from "@/lib/runs/format";
import { sampleClientBound } from "@/lib/measurement/runner-load";
import type { Sample } from "@/lib/measurement/sample";

/**
 * The runner's own load in this second, with a caution when it is large enough to be in the latencies (the one
 * client rule, lib/measurement/runner-load.ts). A caution, never a verdict: whether the runner was the limit is the
 * live verdict's to say (it holds the rate asked against the rate reached over several seconds).
 */
function RunnerLoadLine({ sample, workload }: { sample: Sample; workload: string }) {
  const m = sample.metrics;
  const load = m.runnerLoad;
  if (!load) return null;
  const main = metricModel(workload)?.operations.find((o) => o.latency && latencyOf(m, o.name));
  const lat = main ? latencyOf(m, main.name) : undefined;
  const p99 = lat?.p99;
  // The one client rule (CLIENT_RULE): the loop's delay is held against the operation's own service time (p50).
  const delayed = sampleClientBound(load, m.intervalSec, lat?.p50);
  return (
    <p className={delayed ? "small" : "small muted"} data-testid="live-runner-load" data-runner-caution={delayed}>
      {delayed && <strong>Caution, the runner&rsquo;s own delay this second: </strong>}
      runner event-loop delay p99 {fmtLatency(load.loopDelayMs.p99)}, max {fmtLatency(load.loopDelayMs.max)}; CPU {(100 * load.cpuCores).toFixed(0)}% of one
      core
      {load.runQueueWaitMsPerSec !== undefined && `, waited ${load.runQueueWaitMsPerSec.toFixed(0)} ms/s for a CPU`}
      {load.eventLoopUtilization !== undefined && `, loop ${(100 * load.eventLoopUtilization).toFixed(0)}% busy`}
      {delayed &&
        main &&
        p99 !== undefined &&
        `: these latencies include up to ${fmtLatency(load.loopDelayMs.max)} of the runner's own delay (${main.label} p99 ${fmtLatency(p99)})`}
    </p>
  );
}

export function LiveNumbers({ sample, workload }: { sample: Sample | undefined; workload: string }) {
  if (!sample) return <p className="muted small">No sample yet: the first arrives one second after the load starts.</p>;
  const m = sample.metrics;
  const model = metricModel(workload);
  return (
    <div className="grid grid-2 live-numbers" data-testid="live-numbers" data-seq={sample.seq}>
      <table className="data compact">
        <caption>Last second (t = {m.elapsedSec.toFixed(0)} s)</caption>
        <thead>
          <tr>
            <th />
            <th className="num">{model ? rateOperations(model)[0]?.unit : "item"}/s</th>
            <th className="num">MiB/s</th>
            <th className="num">errors</th>
          </tr>
        </thead>
        <tbody>
          {(model ? rateOperations(model) : []).map((o) => {
            const tp = throughputOf(m, o.name);
            return (
              <tr key={o.name} data-testid={`live-${o.name}`}>
                <th scope="row">{o.label}</th>
                <td className="num" data-testid={`live-${o.name}-rate`}>
                  {fmtRate(tp?.perSecond)}
                </td>
                <td className="num">{fmtMiB(tp?.mibPerSec)}</td>
                <td className="num">{o.errors ? fmtInt(tp?.errors) : "–"}</td>
              </tr>
            );
          })}
          {model?.backlog && (
            <tr>
              <th scope="row">{model.backlog.label.toLowerCase()}</th>
              <td className="num" colSpan={3} data-testid="live-backlog">
                {fmtInt(measureOf(m, "backlog"))} {model.backlog.unit}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <table className="data compact">
        <caption>Latency in the last second</caption>
        <thead>
          <tr>
            <th />
            <th className="num">p50</th>
            <th className="num">p95</th>
            <th className="num">p99</th>
            <th className="num">max</th>
          </tr>
        </thead>
        <tbody>
          {(model ? latencyMetrics(model) : [])
            .filter((l) => latencyOf(m, l.name))
            .map(({ name, label }) => {
              const l = latencyOf(m, name)!;
              return (
                <tr key={name} data-testid={`live-lat-${name}`}>
                  <th scope="row">{label}</th>
                  <td className="num">{fmtLatency(l.p50)}</td>
                  <td className="num">{fmtLatency(l.p95)}</td>
                  <td className="num">{fmtLatency(l.p99)}</td>
                  <td className="num">{fmtLatency(l.max)}</td>
                </tr>
              );
            })}
        </tbody>
      </table>
      <RunnerLoadLine sample={sample} workload={workload} />
    </div>
  );
}
