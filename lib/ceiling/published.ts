// A ceiling beside what was published for the same workload: each published scenario's rate and delivery p99
// (always labelled published, never mixed with a measurement), whether its client shape is the search's, and
// one sentence putting the two side by side, this server's side being the search's answer (lib/ceiling/answer.ts
// `ours`: what its steps show now, rebuilt as they arrive). Browser-safe.
import { fmtLatency } from "../runs/numbers";
import { REFERENCES, referenceLabel } from "../references/references";
import type { CeilingAnswer } from "./answer";

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

/** The published scenarios of `workload`, the same-shaped first, each beside the search's answer. */
export function publishedBeside(workload: string, config: Record<string, unknown>, answer: Pick<CeilingAnswer, "ours">): PublishedBeside[] {
  return REFERENCES.filter((r) => r.workload === workload)
    .map((r) => {
      const c = r.config as unknown as Record<string, unknown>;
      const sameShape = SHAPE.every((k) => c[k] === null || c[k] === undefined || config[k] === undefined || c[k] === config[k]);
      const p99 = r.headline.latencyMs.e2e.p99;
      return {
        id: r.id,
        title: referenceLabel(r),
        rate: r.headline.writeMsgPerSec,
        throttle: r.config.throttleWritesPerSec,
        e2eP99Ms: p99,
        server: `${r.server.instance}, ${r.server.vcpu} vCPU`,
        sameShape,
        sentence: `the published ${referenceLabel(r)} ran at ${rate(r.headline.writeMsgPerSec)} at ${fmtLatency(p99)} e2e p99; ${answer.ours}`,
      };
    })
    .sort((a, b) => Number(b.sameShape) - Number(a.sameShape));
}
