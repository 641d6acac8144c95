// For the verdict's tests: one TelemetryWindow for the rules that read it (a quiet default each test changes where
// it matters), a verdict explained line by line for a failed assertion's message, and readings of a primary with
// two standbys as an embedded cluster on one machine gives them (for replication's tests).
import type { StandbyReading } from "./replication-shape";
import type { TelemetrySample } from "./shape";
import type { Verdict } from "./verdict";
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

/** A verdict's statement, then each rule with evidence: matched or not, every number beside its threshold. */
export const explainVerdict = (v: Verdict) =>
  `${v.statement}\n${v.findings
    .filter((f) => f.evidence.length)
    .map(
      (f) =>
        `${f.category} ${f.matched ? "MATCHED" : "no"}: ${f.evidence.map((e) => `${e.what} ${+e.value.toFixed(3)}${e.cmp ? ` ${e.cmp} ${e.threshold}${e.holds === undefined ? "" : e.holds ? " ✓" : " ✗"}` : ""}`).join("; ")}`,
    )
    .join("\n")}`;

/** One evidence value of a rule's finding, by its label (exact, or matching). */
export const evidenceOf = (v: Verdict, category: string, what: string | RegExp) =>
  v.findings.find((f) => f.category === category)?.evidence.find((e) => (typeof what === "string" ? e.what === what : what.test(e.what)))?.value;

/** The published three-node scenarios' synchronous_standby_names. */
export const SYNC_NAMES = "FIRST 1 (pg2, pg3)";

/** A standby caught up to within a few KiB, replay a few hundred µs behind. */
export const standbyReading = (name: string, syncState: string, over: Partial<StandbyReading> = {}): StandbyReading => ({
  name,
  state: "streaming",
  syncState,
  writeLagBytes: 0,
  flushLagBytes: 0,
  replayLagBytes: 2_912,
  writeLagMs: 0.21,
  flushLagMs: 0.43,
  replayLagMs: 0.61,
  slot: name,
  retainedBytes: 2_912,
  ...over,
});

/**
 * The i-th one-second reading of a primary (320 KB of WAL a second, ~950 commits/s): 8 run connections read 10
 * times, `syncRep` of them waiting on SyncRep per reading; `standbys` undefined: no replication recorded.
 */
export function replicatedReading(
  i: number,
  standbys: StandbyReading[] | undefined,
  o: { syncRep?: number; lsn?: number; commits?: number } = {},
): TelemetrySample {
  const syncRep = o.syncRep ?? 0;
  return {
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)).toISOString(),
    intervalSec: 1,
    ticks: 10,
    run: { total: 80, active: 20 + syncRep * 10, idle: 60 - syncRep * 10, idleInTx: 0 },
    runWaits: { CPU: 20, ...(syncRep ? { "IPC:SyncRep": syncRep * 10 } : {}) },
    other: { total: 10, active: 0, idle: 10, idleInTx: 0 },
    otherWaits: {},
    lockWaits: 0,
    runLockWaits: 0,
    db: {
      commitsPerSec: o.commits ?? 950,
      rollbacksPerSec: 0,
      insertedPerSec: 900,
      updatedPerSec: 90,
      deletedPerSec: 0,
      blocksReadPerSec: 0,
      blocksHitPerSec: 5000,
      deadlocks: 0,
    },
    ...(standbys ? { replication: { lsn: o.lsn ?? 24_000_000 + i * 320_000, synchronousStandbyNames: SYNC_NAMES, standbys, idleSlots: [] } } : {}),
    overhead: { statements: 6, ms: 2 },
  };
}
