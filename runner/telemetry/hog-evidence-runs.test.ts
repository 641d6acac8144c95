// The verdict beside busy-loop processes pinned to the runner's CPU (and the runner pinned there too): it names the
// others' CPU and the runner's wait for a CPU (host-bound, or the starved runner's caution on the latencies: never
// "the limit" unless it was). Run alone (scripts/test-order.ts RUN_ALONE): its six hogs took a core from every file
// beside it in the judging lane, whose runs judge their own conclusions.
import { explainVerdict } from "../../lib/telemetry/testing";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type CpuHogs, cpuHogs, testDatabase } from "../../lib/testing";
import type { WorkloadInput } from "../../lib/workloads/config";
import { clock } from "../core/timing";
import { judgedBeside } from "./judged-testing";

const explain = explainVerdict;

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("hog_evidence");
});
after(async () => {
  await db?.drop();
});

describe("with CPU hogs pinned beside the runner", () => {
  let hogs: CpuHogs;
  before(async () => {
    hogs = await cpuHogs(6);
  });
  after(() => hogs?.stop());

  test("the verdict names the hogs' CPU and the runner's wait for a CPU", async (t) => {
    // The hogs' CPU as the test itself reads it from /proc over the measured window.
    const hogSeconds = () => hogs.cpuSeconds();
    let from: { sec: number; at: number } | undefined;
    let hogCores = 0;
    const { verdict, window, summary } = await judgedBeside({ kind: "pubsub", durationSeconds: 4, warmupSeconds: 1 } as WorkloadInput, db.url, (on) => {
      if (on) from = { sec: hogSeconds(), at: clock() };
      else if (from) hogCores = (hogSeconds() - from.sec) / ((clock() - from.at) / 1000);
    });
    t.diagnostic(`${verdict.statement}; the hogs used ${hogCores.toFixed(2)} cores by the test's own reading`);
    // Host-bound, or the runner's caution inside whatever the headline is (a starved runner is not the limit), or
    // the runner at its limit (client-bound: this unpaced run asked no rate it could have met).
    const cpuNamed = /host-bound: other processes|these latencies include up to [\d.]+ m?s of the runner's own delay/.test(verdict.statement);
    assert.ok(["host-bound", "client-bound"].includes(verdict.category) || cpuNamed, explain(verdict));
    assert.doesNotMatch(verdict.statement, verdict.category === "client-bound" ? /starved of CPU \(/ : /the runner was the limit/, explain(verdict));
    const h = window.host!;
    // The verdict's figure for the hogs is the test's own (other processes on this machine may take CPU 0 too).
    const hog = h.topOthers?.find((o) => o.name === "pgbb-hog");
    assert.ok(
      hog && Math.abs(hog.cores - hogCores) <= 0.2,
      `the hogs' CPU ${hogCores.toFixed(2)} cores; shown ${JSON.stringify(h.topOthers)}\n${explain(verdict)}`,
    );
    // Other processes (the hogs among them) used at least the hogs' share of the host.
    assert.ok(h.otherCpuCores! >= hogCores - 0.1, explain(verdict));
    assert.ok((100 * h.otherCpuCores!) / h.cores >= 25, explain(verdict));
    // Sharing one CPU with three busy loops, the runner waits most of the time it could run.
    assert.ok(window.client!.runQueueWaitMsPerSec! >= 100, explain(verdict));
    // (In the headline's evidence, or in the host's or the runner's finding, the caution's numbers.)
    const shown = [
      verdict.evidence,
      ...verdict.findings.filter((f) => (f.matched && f.category === "host-bound") || f.category === "client-bound").map((f) => f.evidence),
    ]
      .flat()
      .find((e) => e.what === "runner's wait for a CPU (runnable, not running)");
    // The verdict judges the runner by the runner-load check's own numbers (one rule): the same figure is shown.
    assert.ok(shown && Math.abs(shown.value - summary.runnerLoad!.runQueueWaitMsPerSec!) < 1e-6, explain(verdict));
    assert.match(verdict.statement, /host-bound: other processes/.test(verdict.statement) ? /pgbb-hog/ : /waited \d+ ms\/s for a CPU/);
  });
});
