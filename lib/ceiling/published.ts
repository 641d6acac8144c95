// A ceiling beside what was published for the same workload: each published scenario's rate and delivery p99
// (always labelled published, never mixed with a measurement), whether its client shape is the search's, and
// one sentence putting the two side by side. Browser-safe.
import { fmtLatency } from "../runs/numbers";
import { REFERENCES, referenceLabel } from "../references/references";
import { sloText, type Slo } from "./slo";

export interface PublishedBeside {
  id: string;
  title: string;
  /** Writes per second the scenario ran at (the published mean). */
  rate: number;
  /** Its throttle: published runs were throttled, so their rate is what was asked, not a ceiling. */
  throttle: number;
  /** The published end-to-end p99 (ms). */
  e2eP99Ms: number;
  server: string;
  /** Writers, readers, groups, partitions, batches and payload equal the search's. */
  sameShape: boolean;
  sentence: string;
}

const SHAPE = ["writers", "readers", "consumerGroups", "partitions", "writeBatch", "readBatch", "payloadBytes"] as const;
const rate = (n: number) => `${Math.round(n).toLocaleString("en-US")} msg/s`;

/** The published scenarios of `workload`, the same-shaped first. `ceiling` null: the search found none (yet). */
export function publishedBeside(workload: string, config: Record<string, unknown>, ceiling: number | null, slo: Slo, metricLabel: string): PublishedBeside[] {
  return REFERENCES.filter((r) => r.workload === workload)
    .map((r) => {
      const c = r.config as unknown as Record<string, unknown>;
      const sameShape = SHAPE.every((k) => c[k] === null || c[k] === undefined || config[k] === undefined || c[k] === config[k]);
      const p99 = r.headline.latencyMs.e2e.p99;
      const ours =
        ceiling === null
          ? `this server sustained no step with ${metricLabel} ${sloText(slo)}`
          : `this server sustains ${rate(ceiling)} with ${metricLabel} ${sloText(slo)}`;
      return {
        id: r.id,
        title: referenceLabel(r),
        rate: r.headline.writeMsgPerSec,
        throttle: r.config.throttleWritesPerSec,
        e2eP99Ms: p99,
        server: `${r.server.instance}, ${r.server.vcpu} vCPU`,
        sameShape,
        sentence: `the published ${referenceLabel(r)} ran at ${rate(r.headline.writeMsgPerSec)} at ${fmtLatency(p99)} e2e p99; ${ours}`,
      };
    })
    .sort((a, b) => Number(b.sameShape) - Number(a.sameShape));
}
