// Tests only (runner/parts/parts-failures.test.ts): a coordinator in a process of its own, which the test kills to
// check that its parts then exit on their own. Runs a long queue run over 2 processes against TARGET_URL and prints
// its log and a line per sample.
import { WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload } from "../engine";

const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 50, durationSeconds: 60, processes: 2 });
runWorkload(config, process.env.TARGET_URL ?? "", {
  telemetry: false,
  log: (l) => console.log(l),
  onSample: (s) => console.log(`sample ${s.seq}`),
}).catch((e) => console.log(`failed: ${(e as Error).message}`));
