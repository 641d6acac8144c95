// Yong's cache and DBOS's workflows and queued workflows over 2 real runner processes (runner/parts/: the
// coordinator forks two parts, merges their seconds and summaries and verifies the whole run from their ledgers):
// every request and every workflow of both processes accounted for. In one process: ./part-ledgers.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { RunSummary } from "../lib/measurement/summary";
import { testDatabase } from "../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { runWorkload, verificationError } from "../runner/harness";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("part_runs");
});
after(async () => {
  await db.drop();
});

async function overTwo(input: WorkloadInput): Promise<RunSummary> {
  const s = await runWorkload(WorkloadConfig.parse({ durationSeconds: 2, warmupSeconds: 0, ...input, processes: 2 }), db.url, { drainSeconds: 3 });
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const parts = s.manifest.parts ?? [];
  assert.equal(new Set(parts.map((p) => p.pid)).size, 2, "two part processes");
  return s;
}

const fact = (s: RunSummary, name: string) => s.verification.facts.find((f) => f.name === name)?.value;

test("cache over 2 processes: every get and set of both checked; keys both set hold one of their last sets", async () => {
  const s = await overTwo({ kind: "cache", vus: 6, thinkMs: 0, pool: 4, keys: 50 });
  const requests = s.totals!.operations.get + s.totals!.operations.set;
  assert.ok(s.totals!.operations.set > 0);
  assert.equal(s.verification.checked, requests, "checked = the parts' gets and sets");
  assert.equal(fact(s, "the table holds every key"), true);
});

test("workflows over 2 processes: every workflow both started is in workflow_status, every completion SUCCESS", async () => {
  const s = await overTwo({ kind: "workflows", rate: 200, connections: 4 });
  assert.ok(s.verification.checked > 0);
  assert.equal(fact(s, "completions committed"), s.totals!.operations.workflow, "completions = the parts' workflows");
  assert.equal(fact(s, "workflows in workflow_status"), fact(s, "starts committed"));
});

test("queued workflows over 2 processes: every workflow enqueued is completed or still queued, whichever process ran it", async () => {
  const s = await overTwo({ kind: "queued-workflows", enqueuers: 2, workers: 2, executors: 2, throttleWritesPerSec: 200, pollMs: 50 });
  assert.equal(s.verification.checked, s.totals!.operations.write, "checked = the parts' enqueues");
  assert.match((s.notes ?? []).join("\n"), /over 2 runner processes: [\d,]+ workflows? (?:were|was) completed by another process/);
});

test("notify over 2 processes: part 0's subscriber receives every message both processes published, once", async () => {
  const s = await overTwo({ kind: "notify", variant: "modded", vus: 4, thinkMs: 0, pool: 2 });
  assert.equal(s.verification.checked, s.totals!.operations.publish, "checked = the parts' publishes");
  assert.equal(fact(s, "never received"), 0);
});
