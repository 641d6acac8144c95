// A run's buffers are given back when it ends: a big-payload run in a child process (plain node, no
// --expose-gc, as the runner starts), measured by scripts/bench-memory.ts --payload-run. Bounds are generous
// (memory figures vary with when V8 collects); they fail only if a run's data stays or the estimate is far off.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { testDatabase } from "../lib/testing";

let target: { url: string; drop: () => Promise<void> };
before(async () => {
  target = await testDatabase("release_mem");
});
after(async () => {
  await target.drop();
});

function benchMemory(config: object): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/bench-memory.ts", "--payload-run", "--json", "--target", target.url, "--config", JSON.stringify(config)],
      { cwd: PROJECT_ROOT, env: process.env },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => resolve({ code: code ?? 1, out, err }));
  });
}

test("a 1 writer × batch 20 × 1 MiB run holds about its estimate, and its memory is released after it", async () => {
  const r = await benchMemory({
    kind: "pubsub",
    writers: 1,
    writeBatch: 20,
    readBatch: 20,
    partitions: 1,
    payloadBytes: 1048576,
    // Long enough for one 20 MiB batch to be written in the window on a machine whose cores are busy with other
    // work (2 s once ended with no batch written): the memory figures do not depend on the length.
    durationSeconds: 6,
    warmupSeconds: 0,
  });
  assert.equal(r.code, 0, r.err);
  const [m] = JSON.parse(r.out.trim().split("\n").pop()!) as { estimateMiB: number; peakAddedMiB: number; leftAfterReleaseMiB: number; messages: number }[];
  assert.ok(m.messages >= 20, `the run wrote ${m.messages} messages`);
  // The writer's batch alone is 20 × 1 MiB × 3 live (hex text + random bytes): the run really held its data.
  assert.ok(m.peakAddedMiB > 60, `peak added ${m.peakAddedMiB} MiB`);
  assert.ok(m.peakAddedMiB < 2 * m.estimateMiB, `peak added ${m.peakAddedMiB} MiB against an estimate of ${m.estimateMiB} MiB`);
  assert.ok(m.leftAfterReleaseMiB < 50, `${m.leftAfterReleaseMiB} MiB left after the run`);
});
