// One TelemetryWindow for the tests of the rules that read it: a quiet default each test changes where it matters.
import type { TelemetryWindow } from "./window";

/** A quiet window: 10 s of 10 connections, mostly idle, nothing limiting. `over` replaces whole fields. */
export function windowOf(over: Partial<TelemetryWindow> = {}): TelemetryWindow {
  return {
    seconds: 10,
    samples: 10,
    runConnections: 10,
    runActiveShare: 0.1,
    runIdleShare: 0.9,
    runIdleInTxShare: 0,
    runWaitShares: { CPU: 1 },
    otherBackends: 0,
    otherActive: 0,
    otherWaitShares: {},
    lockWaitsAvg: 0,
    lockWaitsMax: 0,
    runLockWaitsAvg: 0,
    host: { cpuBusyPct: 20, iowaitPct: 0, serverCpuCores: 0.2, cores: 2, diskReadBytesPerSec: 0, diskWriteBytesPerSec: 0, diskBusyPct: 5 },
    client: { cpuPct: 20, eventLoopUtilization: 0.2, eventLoopDelayMaxMs: 12 },
    overhead: { statementsPerSec: 6, msPerSample: 2, msPerSampleMax: 4 },
    ...over,
  };
}
