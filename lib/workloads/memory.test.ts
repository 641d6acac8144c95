// The runner's memory budget: each workload's estimate from its config, and the one refusal every surface
// shows (pure functions; the API, CLI and runner refusals are tested in their own files).
import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultMemoryBudgetMb, readEnv } from "../env";
import { clientMemoryBytes, GARBAGE_ALLOWANCE_BYTES, memoryProblem, sizeText } from "./memory";
import { WorkloadConfig } from "./config";

const MiB = 1048576;

test("pub/sub's estimate: writers × write batch × payload × 4 + readers × groups × (read batch × 2 + 4) × payload + 64 MiB of garbage", () => {
  const c = WorkloadConfig.parse({ kind: "pubsub", writers: 1, writeBatch: 50, payloadBytes: 10 * MiB, partitions: 1, readBatch: 10 });
  assert.equal(clientMemoryBytes(c), 1 * 50 * 10 * MiB * 4 + 1 * 1 * (10 * 2 + 4) * 10 * MiB + GARBAGE_ALLOWANCE_BYTES);
  // The reference's defaults hold little: 4 × 100 × 1 KiB × 4 + 10 × 204 × 1 KiB, besides the garbage.
  assert.equal(clientMemoryBytes(WorkloadConfig.parse({ kind: "pubsub" })), (4 * 100 * 4 + 10 * 204) * 1024 + 64 * MiB);
});

test("the queue's estimate: writers × payload × 5 + readers × payload × 8 + 64 MiB of garbage", () => {
  const c = WorkloadConfig.parse({ kind: "queue", writers: 3, readers: 2, payloadBytes: MiB });
  assert.equal(clientMemoryBytes(c), (3 * 5 + 2 * 8 + 64) * MiB);
});

test("a run over the budget is refused with the estimate, its parts in numbers, and the fields to lower", () => {
  const c = WorkloadConfig.parse({ kind: "pubsub", writers: 1, writeBatch: 50, payloadBytes: 10 * MiB, partitions: 1, readBatch: 10 });
  const p = memoryProblem(c, 1024);
  assert.ok(p);
  assert.equal(p.field, "payloadBytes");
  assert.equal(p.estimateBytes, 2000 * MiB + 240 * MiB + 64 * MiB);
  assert.equal(
    p.message,
    "this run would hold about 2.3 GiB of message data in the runner (1 writer × write batch 50 × 10 MiB payload × 4 (the batch as hex text, 2 bytes a byte, its random bytes, " +
      "and each payload's hex text while it is built) + 1 reader × (read batch 10 × 2 + 4) × 10 MiB payload (a poll's rows as hex text, and the driver's receive buffer) + " +
      "64 MiB of garbage collected in steps), over the runner's 1 GiB memory budget: " +
      "lower Payload, Write batch, Writers, Read batch, Partitions or Consumer groups, or raise RUNNER_MEMORY_BUDGET_MB (now 1024)",
  );
  // A surface words the fields its own way (the CLI: flags).
  assert.match(memoryProblem(c, 1024, (f) => `-${f}`)!.message, /lower -payloadBytes, -writeBatch, -writers, /);
  // Within the budget: nothing to say. Raising the budget lets the same run through.
  assert.equal(memoryProblem(c, 2304), null);
  assert.equal(memoryProblem(WorkloadConfig.parse({ kind: "queue" }), 128), null);
});

test("the queue names its own levers, the largest part's first", () => {
  // 100 writers × 1 MiB × 5 + 200 readers × 1 MiB × 8 + 64 MiB = 2,164 MiB: the readers weigh most.
  const c = WorkloadConfig.parse({ kind: "queue", writers: 100, readers: 200, payloadBytes: MiB });
  const p = memoryProblem(c, 2048);
  assert.ok(p);
  assert.equal(p.estimateBytes, 2164 * MiB);
  assert.match(
    p.message,
    /^this run would hold about 2\.1 GiB of message data in the runner \(100 writers × 1 MiB payload × 5 .* \+ 200 readers × 1 MiB payload × 8 /,
  );
  assert.match(p.message, /: lower Payload, Readers or Writers, or raise RUNNER_MEMORY_BUDGET_MB \(now 2048\)$/);
  assert.equal(memoryProblem(c, 2164), null);
});

test("RUNNER_MEMORY_BUDGET_MB: default min(2048, half the machine); a bad value is refused by name", () => {
  assert.equal(readEnv({}).RUNNER_MEMORY_BUDGET_MB, defaultMemoryBudgetMb());
  assert.ok(defaultMemoryBudgetMb() <= 2048 && defaultMemoryBudgetMb() > 0);
  assert.equal(readEnv({ RUNNER_MEMORY_BUDGET_MB: "4096" }).RUNNER_MEMORY_BUDGET_MB, 4096);
  assert.throws(() => readEnv({ RUNNER_MEMORY_BUDGET_MB: "lots" }), /RUNNER_MEMORY_BUDGET_MB must be a number of MiB/);
  assert.throws(() => readEnv({ RUNNER_MEMORY_BUDGET_MB: "64" }), /RUNNER_MEMORY_BUDGET_MB must be at least 128/);
  assert.equal(sizeText(512 * MiB), "512 MiB");
  assert.equal(sizeText(2.4 * 1024 * MiB), "2.4 GiB");
});
