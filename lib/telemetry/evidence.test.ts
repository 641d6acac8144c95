// The verdict's evidence on hand-made windows: who used the CPU (host-bound, a CPU-bound server only when the
// run itself filled the host), words that follow from the numbers that held, and backend counts summed over the
// wait sampler's several readings a second.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TELEMETRY_CSV } from "./report";
import type { TelemetrySample } from "./shape";
import { THRESHOLDS, verdictOf, type VerdictInput } from "./verdict";
import { windowOf } from "./testing";
import { telemetryWindow, type TelemetryWindow } from "./window";

/** The quiet window, its host CPU split between the runner and other processes. */
function win(over: Partial<TelemetryWindow> = {}): TelemetryWindow {
  return windowOf({
    host: {
      cpuBusyPct: 20,
      iowaitPct: 0,
      serverCpuCores: 0.2,
      runnerCpuCores: 0.1,
      otherCpuCores: 0.1,
      cores: 2,
      diskReadBytesPerSec: 0,
      diskWriteBytesPerSec: 0,
      diskBusyPct: 5,
    },
    client: { cpuPct: 10, eventLoopUtilization: 0.2, eventLoopDelayMaxMs: 3, runQueueWaitMsPerSec: 5 },
    ...over,
  });
}
const find = (input: VerdictInput, cat: string) => verdictOf(input).findings.find((f) => f.category === cat)!;
/** A host two other processes fill: 1.5 of 2 cores theirs, the runner waiting for a CPU. */
const busyHost = (runQueueWaitMsPerSec: number) =>
  win({
    host: {
      cpuBusyPct: 99,
      iowaitPct: 0,
      serverCpuCores: 0.3,
      runnerCpuCores: 0.18,
      otherCpuCores: 1.5,
      topOthers: [{ name: "stress", cores: 1.4 }],
      cores: 2,
      diskReadBytesPerSec: 0,
      diskWriteBytesPerSec: 0,
      diskBusyPct: 5,
    },
    client: { cpuPct: 18, eventLoopUtilization: 0.95, eventLoopDelayMaxMs: 80, runQueueWaitMsPerSec },
  });

describe("who used the CPU", () => {
  test("host-bound: other processes filled the host and the runner waited for a CPU; the words name them and their share", () => {
    const v = verdictOf({ telemetry: busyHost(400), client: { exposedDelayMs: 60, serviceMs: 5 } });
    assert.equal(v.category, "host-bound", v.statement);
    assert.match(
      v.statement,
      /other processes used 75% of the host's 2 CPUs \(stress 140% of a core\) with the host 99% busy, and the runner waited 400 ms\/s for a CPU/,
    );
    // The runner's loop was "busy" 95% while it got 18% of a core: starvation (a caution on the latencies), never
    // saturation, and never a second category.
    assert.deepEqual(v.also, []);
    assert.match(v.caution ?? "", /^these latencies include up to 80\.0 ms of the runner's own delay: the runner was starved of CPU/);
    assert.equal(find({ telemetry: busyHost(400) }, "client-bound").evidence.find((e) => e.what === "runner event-loop utilization")?.holds, undefined);
    // The runner not kept waiting: the others' CPU alone is not what limited the run.
    assert.equal(find({ telemetry: busyHost(THRESHOLDS.clientRunQueueWaitMsPerSec - 1) }, "host-bound").matched, false);
  });

  test("a host filled by other processes is not a CPU-bound server; one the run fills is", () => {
    const onCpu = { runActiveShare: 0.9, runIdleShare: 0.1, runWaitShares: { CPU: 0.9, "LWLock:BufferContent": 0.1 } };
    const others = { ...busyHost(0), ...onCpu };
    assert.equal(find({ telemetry: others }, "cpu-bound-server").matched, false);
    const byRun = { ...others, host: { ...others.host!, serverCpuCores: 1.2, runnerCpuCores: 0.6, otherCpuCores: 0.18, topOthers: [] } };
    assert.equal(find({ telemetry: byRun }, "cpu-bound-server").matched, true);
  });

  test("a runner at a fraction of a core, not kept waiting, is not client-bound whatever a p99 says", () => {
    const v = verdictOf({ telemetry: win(), client: { cpuPct: 15, exposedDelayMs: 8, mainP99Ms: 30, serviceMs: 12 } });
    assert.notEqual(v.category, "client-bound", v.statement);
  });
});

describe("the words follow from the numbers", () => {
  test("client-bound by CPU names its CPU only, never the numbers short of their thresholds", () => {
    const v = verdictOf({ telemetry: win({ client: { cpuPct: 97, eventLoopUtilization: 0.6, eventLoopDelayMaxMs: 4, runQueueWaitMsPerSec: 10 } }) });
    assert.equal(v.category, "client-bound");
    assert.match(v.statement, /^client-bound: the runner was the limit \(its CPU reached 97% of one core\)/);
    assert.doesNotMatch(v.statement, /event loop|waited \d+ ms\/s/);
  });

  test("no rule matched: undetermined with the top waits, and no category's words", () => {
    const w = win({ runActiveShare: 0.45, runIdleShare: 0.55, runWaitShares: { CPU: 0.4, "LWLock:BufferContent": 0.35, "Lock:tuple": 0.25 } });
    const v = verdictOf({ telemetry: w, client: { cpuPct: 75, eventLoopUtilization: 0.5 } });
    assert.equal(v.category, "undetermined", v.statement);
    assert.match(v.statement, /^undetermined: no rule's thresholds were met .*top waits CPU 40%, LWLock:BufferContent 35%, Lock:tuple 25%/);
  });
});

describe("backend counts over the wait sampler's readings", () => {
  const sample = (i: number, over: Partial<TelemetrySample> = {}): TelemetrySample => ({
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    intervalSec: 1,
    ticks: 10,
    run: { total: 40, active: 30, idle: 10, idleInTx: 0 },
    runWaits: { "LWLock:WALWrite": 27, CPU: 3 },
    other: { total: 10, active: 0, idle: 10, idleInTx: 0 },
    otherWaits: {},
    lockWaits: 0,
    runLockWaits: 0,
    overhead: { statements: 6, ms: 2 },
    ...over,
  });

  test("connections are averaged per reading, shares over every reading", () => {
    const w = telemetryWindow([sample(0), sample(1)])!;
    assert.equal(w.runConnections, 4);
    assert.equal(w.otherBackends, 1);
    assert.equal(w.waitReadings, 20);
    assert.equal(w.runActiveShare, 0.75);
    assert.equal(w.runWaitShares["LWLock:WALWrite"], 0.9);
  });

  test("samples.csv's backend columns are the average reading, not the sum", () => {
    const col = (name: string) => TELEMETRY_CSV.find((c) => c.name === name)!.value(sample(0));
    assert.equal(col("pg_run_connections"), 4);
    assert.equal(col("pg_run_active"), 3);
  });

  test("a stored sample without readings counts as one", () => {
    const w = telemetryWindow([sample(0, { ticks: undefined, run: { total: 4, active: 1, idle: 3, idleInTx: 0 } })])!;
    assert.equal(w.runConnections, 4);
  });
});
