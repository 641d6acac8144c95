// The one recorder of a run (runner and CLI --save): phases in order, samples, the outcome after the phases,
// and an error that quotes a connection string stored masked.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { prisma } from "../db";
import { runRecorder } from "./recorder";
import { createRun, getRun, samplesAfter } from "./store";
import type { SampleMetrics } from "../measurement/sample";
import { testControlStore } from "../testing";
import { WorkloadConfig } from "../workloads/config";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
before(async () => {
  ctl = await testControlStore("recorder_ctl");
});
after(async () => {
  await prisma().$disconnect();
  await ctl.drop();
});

const metrics = {
  elapsedSec: 1,
  intervalSec: 1,
  writes: { count: 1, msgPerSec: 1, mibPerSec: 0, errors: 0 },
  reads: { count: 1, msgPerSec: 1, mibPerSec: 0, errors: 0, emptyPolls: 0 },
  backlog: 0,
  latencyMs: {},
  groups: [],
  errors: [],
} as unknown as SampleMetrics;

test("phases in order, samples, then the outcome; the error is stored masked", async () => {
  const run = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });
  const problems: string[] = [];
  const rec = runRecorder(run.id, prisma(), (l) => problems.push(l));
  rec.phase("setup");
  rec.phase("warmup");
  rec.phase("measuring");
  await rec.sample({ seq: 0, phase: "measuring", time: new Date(), metrics });
  assert.equal(await rec.cancelRequested(), false);
  await rec.finish({ status: "failed", error: "cannot connect to postgresql://u@h/db?password=hunter2: refused" });
  const stored = await getRun(run.id);
  assert.equal(stored?.status, "failed");
  assert.equal(stored?.phase, "measuring", "a failed run keeps the phase it failed in; finish comes after every phase, so no late one overwrites it");
  // The sentence's colon after the URL is punctuation, not part of the password (lib/targets/pgurl.ts maskUrl).
  assert.equal(stored?.error, "cannot connect to postgresql://u@h/db?password=****: refused");
  assert.deepEqual(
    (await samplesAfter(run.id)).map((s) => s.seq),
    [0],
  );
  assert.deepEqual(problems, []);
});

test("a phase or sample the store refuses (not an outage) is reported at once, never retried for ever", async () => {
  const problems: string[] = [];
  const rec = runRecorder("r_missing00000", prisma(), (l) => problems.push(l));
  rec.phase("setup");
  rec.sample({ seq: 0, phase: "setup", time: new Date(), metrics });
  // The run does not exist: storing its outcome fails too, and says so instead of waiting.
  await assert.rejects(rec.finish({ status: "failed", error: "x" }));
  assert.match(problems.join("\n"), /r_missing00000: could not store phase setup/);
  assert.match(problems.join("\n"), /r_missing00000: cannot store sample 0: .*; it is lost/);
});
