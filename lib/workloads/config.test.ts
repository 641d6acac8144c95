import assert from "node:assert/strict";
import { test } from "node:test";
import { LONG_RUN_SECONDS, MAX_DRAIN_SECONDS, parseConfig, PRESETS, runTimeOf, WorkloadConfig } from "./config";

const errors = (input: unknown) => {
  const r = parseConfig(input);
  assert.ok(!r.ok, `expected ${JSON.stringify(input)} to be refused`);
  return r.errors;
};

test("messages use the labels and units the form shows", () => {
  assert.deepEqual(errors({ kind: "pubsub", durationSeconds: 0 }), { durationSeconds: "Measured duration must be at least 1 s" });
  assert.deepEqual(errors({ kind: "queue", payloadBytes: 0 }), { payloadBytes: "Payload must be at least 1 byte" });
  assert.deepEqual(errors({ kind: "queue", payloadBytes: 20_000_000 }), { payloadBytes: "Payload must be at most 10,485,760 bytes" });
  assert.deepEqual(errors({ kind: "queue", readers: 0 }), { readers: "Readers must be at least 1" });
  assert.deepEqual(errors({ kind: "pubsub", readers: 0 }), { readers: "Readers per group must be at least 1" });
  assert.deepEqual(errors({ kind: "queue", tuneTableVacuum: "yes" }), { tuneTableVacuum: "Tune table vacuum must be true or false" });
  assert.match(
    errors({ kind: "pubsub", throttleWritesPerSec: 50, writeBatch: 100 }).throttleWritesPerSec,
    /^Write limit \(50 msg\/s\) is below Write batch \(100 msgs\)/,
  );
});

test("every bad field at once, cross-field checks included", () => {
  const e = errors({ kind: "pubsub", writers: 0, partitions: 2, readers: 3, durationSeconds: -1, throttleWritesPerSec: 10, writeBatch: 100 });
  assert.deepEqual(Object.keys(e).sort(), ["durationSeconds", "readers", "throttleWritesPerSec", "writers"]);
  assert.equal(e.writers, "Writers must be at least 1");
  assert.match(e.readers, /^Readers per group \(3\) must equal Partitions \(2\)/);
  // A cross-field check whose fields are not valid on their own stays quiet (no claim about a default).
  assert.deepEqual(errors({ kind: "pubsub", partitions: 0, readers: 3 }), { partitions: "Partitions must be at least 1" });
});

test("absent fields take defaults; present but unusable ones are refused", () => {
  const ok = parseConfig({ kind: "pubsub", partitions: 4 });
  assert.ok(ok.ok);
  assert.equal(ok.config.kind === "pubsub" && ok.config.writers, 4);
  assert.equal(ok.config.kind === "pubsub" && ok.config.readers, 4, "readers per group follow partitions when left out");
  assert.deepEqual(errors({ kind: "queue", writers: "", readers: null, durationSeconds: "abc", warmupSeconds: "5" }), {
    writers: "Writers is required: enter a whole number",
    readers: "Readers is required: enter a whole number",
    durationSeconds: 'Measured duration must be a whole number, not "abc"',
    warmupSeconds: 'Warm-up must be a whole number, not "5"',
  });
  // A misspelt field would otherwise launch the default it was meant to change.
  assert.match(errors({ kind: "queue", writer: 10 }).writer, /^"writer" is not a field of a queue workload \(its fields: kind, writers,/);
  assert.match(errors({ kind: "queue", partitions: 2 }).partitions, /is not a field of a queue workload/);
});

test("the longest a run loads its target: warm-up + window + the longest drain", () => {
  const c = WorkloadConfig.parse({ kind: "queue", warmupSeconds: 5, durationSeconds: 1800 });
  assert.deepEqual(runTimeOf(c), { warmup: 5, measured: 1800, drainMax: MAX_DRAIN_SECONDS, load: 1805, total: 1805 + MAX_DRAIN_SECONDS });
  // Published presets longer than 5 minutes, and the long runs (lib/workloads/long-run.ts), are the ones the form offers a short window for.
  const long = PRESETS.filter((p) => runTimeOf(WorkloadConfig.parse(p.config)).total > LONG_RUN_SECONDS).map((p) => p.id);
  const longRuns = ["pubsub", "queue", "jobqueue", "queued-workflows", "graphile-worker", "pg-boss"].map((k) => `${k}-long-run`);
  assert.deepEqual(
    long.filter((id) => !longRuns.includes(id)),
    ["pubsub-4vcpu-three-node-sync-replicated", "queue-4vcpu-single-node", "queue-4vcpu-three-node-sync-replicated"],
  );
  assert.deepEqual(long.filter((id) => longRuns.includes(id)).sort(), [...longRuns].sort());
});
