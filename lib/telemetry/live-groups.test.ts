// The live verdict over a real pub/sub run with three consumer groups: every group reads every message, so the
// run's read count is the groups' sum; what the consumers took is per group, as the finished verdict says it.
// Before, the live page divided by one group and said the consumers took three times what was written.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { SampleMetrics } from "../measurement/sample";
import { testDatabase } from "../testing";
import { runWorkload } from "../../runner/harness";
import { liveVerdict } from "./live";
import { paceSpecOf } from "./pace";
import type { Verdict } from "./verdict";
import { definitionOf, pacingOf, WorkloadConfig } from "../workloads/config";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("live_groups");
});
after(async () => {
  await db.drop();
});

const fact = (v: Verdict, what: string) => v.findings.find((f) => f.category === "consumers-behind")?.evidence.find((e) => e.what === what)?.value;

test("live: the consumers' read rate is per group (three groups each read every message), as in the finished verdict", async () => {
  const config = WorkloadConfig.parse({ kind: "pubsub", consumerGroups: 3, throttleWritesPerSec: 200, durationSeconds: 6, warmupSeconds: 1 });
  const measured: SampleMetrics[] = [];
  const summary = await runWorkload(config, db.url, {
    drainSeconds: 2,
    onSample: (s) => void (s.phase === "measuring" && measured.push(s.metrics)),
  });
  const finished = summary.telemetry!.verdict;
  const live = liveVerdict(measured, paceSpecOf(pacingOf(config), definitionOf(config).metrics));
  assert.ok(live, `no live verdict over ${measured.length} samples`);
  const [written, read] = [fact(live.verdict, "written"), fact(live.verdict, "read")];
  assert.ok(written && read !== undefined, JSON.stringify(live.verdict.findings));
  // The groups kept up: each read about what was written (not three times it).
  assert.ok(read <= 1.25 * written, `live: read ${read}/s per group of ${written}/s written`);
  assert.ok(read >= 0.5 * written, `live: read ${read}/s per group of ${written}/s written`);
  const finishedRead = fact(finished, "read");
  assert.ok(finishedRead !== undefined && finishedRead <= 1.25 * fact(finished, "written")!, finished.statement);
});
