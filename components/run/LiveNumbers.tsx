// The newest one-second sample as a compact table: what the charts show, as numbers.
import { fmtInt, fmtMiB, fmtMs, fmtRate } from "@/lib/run-format";
import type { Sample } from "@/lib/sample";

const LAT = [
  ["write", "write"],
  ["writeScheduled", "write (scheduled)"],
  ["read", "read"],
  ["claim", "claim"],
  ["e2e", "end-to-end"],
] as const;

export function LiveNumbers({ sample }: { sample: Sample | undefined }) {
  if (!sample) return <p className="muted small">No sample yet: the first arrives one second after the load starts.</p>;
  const m = sample.metrics;
  return (
    <div className="grid grid-2 live-numbers" data-testid="live-numbers" data-seq={sample.seq}>
      <table className="data compact">
        <caption>Last second (t = {m.elapsedSec.toFixed(0)} s)</caption>
        <thead>
          <tr>
            <th />
            <th className="num">msg/s</th>
            <th className="num">MiB/s</th>
            <th className="num">errors</th>
          </tr>
        </thead>
        <tbody>
          <tr data-testid="live-write">
            <th scope="row">write</th>
            <td className="num" data-testid="live-write-rate">{fmtRate(m.writes.msgPerSec)}</td>
            <td className="num">{fmtMiB(m.writes.mibPerSec)}</td>
            <td className="num">{fmtInt(m.writes.errors)}</td>
          </tr>
          <tr data-testid="live-read">
            <th scope="row">read</th>
            <td className="num" data-testid="live-read-rate">{fmtRate(m.reads.msgPerSec)}</td>
            <td className="num">{fmtMiB(m.reads.mibPerSec)}</td>
            <td className="num">{fmtInt(m.reads.errors)}</td>
          </tr>
          <tr>
            <th scope="row">backlog</th>
            <td className="num" colSpan={3} data-testid="live-backlog">
              {fmtInt(m.backlog)} msgs
            </td>
          </tr>
        </tbody>
      </table>
      <table className="data compact">
        <caption>Latency in the last second (ms)</caption>
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
          {LAT.filter(([k]) => m.latencyMs[k]).map(([k, label]) => {
            const l = m.latencyMs[k]!;
            return (
              <tr key={k} data-testid={`live-lat-${k}`}>
                <th scope="row">{label}</th>
                <td className="num">{fmtMs(l.p50)}</td>
                <td className="num">{fmtMs(l.p95)}</td>
                <td className="num">{fmtMs(l.p99)}</td>
                <td className="num">{fmtMs(l.max)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
