// A host other processes filled is a cause: it leads, and names the consumers behind after it (a runner merely
// starved is a caution, below consumers behind). evidence-runs.test.ts's pub/sub run beside six busy loops read
// "consumers behind: the consumers took 7,452 of the 9,557 msg/s written …" and nothing else.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PaceSpec } from "./pace";
import { windowOf } from "./testing";
import { verdictOf } from "./verdict";
import type { TelemetryWindow } from "./window";

const spec: PaceSpec = { kind: "unpaced", unit: "msg", operation: "write", label: "write", backlog: true };
const telemetry = windowOf({
  seconds: 4,
  samples: 4,
  runConnections: 12,
  runActiveShare: 0.2,
  runIdleShare: 0.8,
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
});
const facts = { seconds: 4, stalls: [], backlogSlopePerSec: 2112, backlogEnd: 10_600 };

test("consumers behind on a host-bound run: the other processes lead (the readers were short of CPU too), and the backlog is named", () => {
  const v = verdictOf({ telemetry, pace: { spec, achievedPerSec: 9557, facts, writePerSec: 9557, readPerSec: 7452 } });
  assert.equal(v.category, "host-bound", v.statement);
  assert.ok(v.also.includes("consumers-behind"), v.statement);
  assert.match(v.statement, /^host-bound: other processes used [\d.]+% .*pgbb-hog.*; consumers behind: the consumers took 7,452 of the 9,557/, v.statement);
});

test("hogs pinned to the runner's CPU: host-bound though the host as a whole was not full, and it says so", () => {
  // bench:verdict's cpu-hog case read: the host 66% busy (one CPU full of hogs, the other not), the runner waiting
  // 865 ms/s for its CPU. It was called consumers behind with the runner "starved"; the hogs were the cause.
  const pinned: TelemetryWindow = {
    ...telemetry,
    host: { ...telemetry.host!, cpuBusyPct: 66, otherCpuCores: 0.75 },
    client: { ...telemetry.client!, runQueueWaitMsPerSec: 865 },
  };
  const v = verdictOf({ telemetry: pinned, pace: { spec, achievedPerSec: 9557, facts, writePerSec: 9557, readPerSec: 7452 } });
  assert.equal(v.category, "host-bound", v.statement);
  assert.match(v.statement, /with the host 66% busy but the runner's own CPU full, and the runner waited 865 ms\/s/);
  // Not pinned: the runner waited 300 ms/s with the host 66% busy: not host-bound.
  const shared = { ...pinned, client: { ...pinned.client!, runQueueWaitMsPerSec: 300 } };
  assert.notEqual(verdictOf({ telemetry: shared, pace: { spec, achievedPerSec: 9557, facts, writePerSec: 9557, readPerSec: 7452 } }).category, "host-bound");
});
