// Consumers behind headlines over a host-bound run (design: a starved runner is a caution), but its statement must
// say the host was shared: evidence-runs.test.ts's pub/sub run beside six busy loops read "consumers behind: the
// consumers took 7,452 of the 9,557 msg/s written …" and nothing else, while other processes held the CPUs.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PaceSpec } from "./pace";
import { verdictOf } from "./verdict";
import type { TelemetryWindow } from "./window";

const spec: PaceSpec = { kind: "unpaced", unit: "msg", operation: "write", label: "write", backlog: true };
const telemetry: TelemetryWindow = {
  seconds: 4,
  samples: 4,
  runConnections: 12,
  runActiveShare: 0.2,
  runIdleShare: 0.8,
  runIdleInTxShare: 0,
  runWaitShares: { CPU: 1 },
  otherBackends: 0,
  otherActive: 0,
  otherWaitShares: {},
  lockWaitsAvg: 0,
  lockWaitsMax: 0,
  runLockWaitsAvg: 0,
  host: {
    cpuBusyPct: 99,
    iowaitPct: 0,
    serverCpuCores: 0.5,
    runnerCpuCores: 0.3,
    otherCpuCores: 1.1,
    topOthers: [{ name: "pgbb-hog", cores: 1 }],
    cores: 2,
    diskReadBytesPerSec: 0,
    diskWriteBytesPerSec: 0,
    diskBusyPct: 5,
  },
  client: { cpuPct: 30, eventLoopUtilization: 0.6, eventLoopDelayMaxMs: 80, runQueueWaitMsPerSec: 600 },
  overhead: { statementsPerSec: 6, msPerSample: 2, msPerSampleMax: 4 },
};
const facts = { seconds: 4, stalls: [], backlogSlopePerSec: 2112, backlogEnd: 10_600 };

test("consumers behind on a host-bound run: the other processes lead (the readers were short of CPU too), and the backlog is named", () => {
  const v = verdictOf({ telemetry, pace: { spec, achievedPerSec: 9557, facts, writePerSec: 9557, readPerSec: 7452 } });
  assert.equal(v.category, "host-bound", v.statement);
  assert.ok(v.also.includes("consumers-behind"), v.statement);
  assert.match(v.statement, /^host-bound: other processes used [\d.]+% .*pgbb-hog.*; consumers behind: the consumers took 7,452 of the 9,557/, v.statement);
});
