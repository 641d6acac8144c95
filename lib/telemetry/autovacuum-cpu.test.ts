// Dead tuples "slowing the run" only when nothing else explains the slowdown. Seen for real: pace-verdict.test.ts's
// queued-workflows run (dead tuples by design, no autovacuum yet) on this machine while other processes took 47 %
// of its CPUs (host-bound: the runner waited 648 ms/s for a CPU) slowed in its last third, and the verdict called
// the dead tuples autovacuum/bloat pressure. The same numbers here: the slowdown is the CPU's, not the tuples'.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PaceSpec } from "./pace";
import { windowOf } from "./testing";
import { verdictOf } from "./verdict";
import type { TelemetryWindow } from "./window";

const spec: PaceSpec = { kind: "throttle", targetPerSec: 2000, unit: "workflow", operation: "write", label: "enqueue", backlog: false };
const facts = { seconds: 15, stalls: [], firstThird: { rate: 2000, p50Ms: 3 }, lastThird: { rate: 1100, p50Ms: 9 } };

function window(host: TelemetryWindow["host"], runQueueWaitMsPerSec: number): TelemetryWindow {
  return windowOf({
    seconds: 15,
    samples: 15,
    runConnections: 20,
    runActiveShare: 0.2,
    runIdleShare: 0.8,
    host,
    client: { cpuPct: 36, eventLoopUtilization: 0.5, eventLoopDelayMaxMs: 40, runQueueWaitMsPerSec },
    tables: {
      deadTuplesStart: 0,
      deadTuplesEnd: 18_958,
      liveTuplesEnd: 11_410,
      deadTuplesSlopePerSec: 1200,
      deadTuplesMax: 18_958,
      autovacuumRuns: 1,
      autoanalyzeRuns: 0,
    },
  });
}
const av = (w: TelemetryWindow) =>
  verdictOf({ telemetry: w, pace: { spec, achievedPerSec: 1500, facts } }).findings.find((f) => f.category === "autovacuum-pressure")!;

test("a run slowed while other processes held the host's CPUs is host-bound, not autovacuum pressure", () => {
  const busy = {
    cpuBusyPct: 99.7,
    iowaitPct: 0,
    serverCpuCores: 0.7,
    runnerCpuCores: 0.36,
    otherCpuCores: 0.93,
    cores: 2,
    diskReadBytesPerSec: 0,
    diskWriteBytesPerSec: 0,
    diskBusyPct: 5,
  };
  const v = verdictOf({ telemetry: window(busy, 648), pace: { spec, achievedPerSec: 1500, facts } });
  assert.ok(v.findings.find((f) => f.category === "host-bound")!.matched, v.statement);
  assert.equal(av(window(busy, 648)).matched, false, JSON.stringify(av(window(busy, 648)).evidence));
  // On a quiet host the same slowdown, with the dead tuples rising, is theirs.
  const quiet = { ...busy, cpuBusyPct: 40, otherCpuCores: 0.02 };
  assert.equal(av(window(quiet, 5)).matched, true, JSON.stringify(av(window(quiet, 5)).evidence));
});
