// The runner's "wait for a CPU" is its event loop's: the thread that runs every loop (the main thread). Node's
// helper threads (V8's GC and compiler workers, libuv's pool) queue for a CPU too, several at once, and their
// waits say nothing about whether the loop was starved; summed in, they would flag a runner that never waited.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { ClientProbe } from "./client";

/** Run-queue wait of this process's threads other than the main one, ns. */
function helperWaitNs(): number {
  let sum = 0;
  for (const tid of readdirSync("/proc/self/task"))
    if (Number(tid) !== process.pid) sum += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[1]) || 0;
  return sum;
}

test("the runner's wait for a CPU counts its event-loop thread, not helper threads queueing beside it", async (t) => {
  const probe = new ClientProbe();
  // More spinning threads than the host has cores: they queue for a CPU while the main thread sleeps.
  const spin = "const end = Date.now() + 2500; while (Date.now() < end) {}";
  const workers = Array.from({ length: 2 * os.cpus().length }, () => new Worker(spin, { eval: true }));
  const helpersBefore = helperWaitNs();
  try {
    probe.read();
    const start = performance.now();
    await new Promise((r) => setTimeout(r, 1500));
    const helpersMsPerSec = (helperWaitNs() - helpersBefore) / 1e6 / ((performance.now() - start) / 1000);
    const r = probe.read();
    t.diagnostic(`helper threads waited ${helpersMsPerSec.toFixed(0)} ms/s; the probe reported ${r.runQueueWaitMsPerSec?.toFixed(0)} ms/s`);
    assert.ok(helpersMsPerSec >= 200, `the situation: helper threads waited only ${helpersMsPerSec} ms/s`);
    assert.ok(r.runQueueWaitMsPerSec !== undefined);
    assert.ok(r.runQueueWaitMsPerSec < 0.25 * helpersMsPerSec, `the probe counted the helpers' waits: ${r.runQueueWaitMsPerSec} ms/s`);
  } finally {
    probe.stop();
    await Promise.all(workers.map((w) => w.terminate()));
  }
});
