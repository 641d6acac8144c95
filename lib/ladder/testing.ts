// Test helper: a run's summary as a synchronous commit ladder reads it, from known latencies, with or without standbys.
import { encodeHistogram, newHistogram, recordMicros } from "../measurement/histogram";
import type { RunSummary } from "../measurement/summary";
import type { SyncCommitLevel } from "../sync-commit";

/** A pub/sub run's summary: its write and e2e histograms from these latencies (ms), `count` writes over 10 s. */
export function ladderSummary(
  level: SyncCommitLevel,
  writesMs: number[],
  e2eMs: number[],
  count: number,
  replication?: { share: number; replayP50: number; replayMax: number },
) {
  const hist = (ms: number[]) => {
    const h = newHistogram();
    for (const v of ms) recordMicros(h, v * 1000);
    return encodeHistogram(h);
  };
  const sorted = (ms: number[]) => [...ms].sort((a, b) => a - b);
  const pct = (ms: number[], p: number) => sorted(ms)[Math.ceil((p / 100) * ms.length) - 1];
  const lat = (ms: number[]) => ({ p50: pct(ms, 50), p90: 0, p95: 0, p99: pct(ms, 99), p999: 0, max: 0, mean: 0, count: ms.length });
  const standby = (name: string, sync: string) => ({
    name,
    syncStates: [sync],
    seenSec: 10,
    streamingSec: 10,
    replayLagMs: { p50: replication!.replayP50, max: replication!.replayMax },
    lagTimeNullSec: 0,
  });
  return {
    workload: "pubsub",
    config: { kind: "pubsub", synchronousCommit: level, throttleWritesPerSec: 0 },
    window: { measuredSeconds: 10, warmupSeconds: 0 },
    manifest: { serverSettings: { synchronous_commit: level, synchronous_standby_names: replication ? "FIRST 1 (pg2, pg3)" : undefined } },
    operations: {
      write: { count, perSecond: count / 10, errors: 0, latency: { fromSend: lat(writesMs) } },
      e2e: { count, perSecond: count / 10, errors: 0, latency: { fromSend: lat(e2eMs) } },
    },
    histograms: { write: { fromSend: hist(writesMs) }, e2e: { fromSend: hist(e2eMs) } },
    telemetry: {
      info: { synchronousCommit: level },
      window: {
        runWaitShares: replication ? { "IPC:SyncRep": replication.share } : {},
        ...(replication
          ? {
              replication: {
                synchronousStandbyNames: "FIRST 1 (pg2, pg3)",
                standbys: [standby("pg2", "sync"), standby("pg3", "potential")],
                syncRepShareOfRun: replication.share / 2,
                events: [],
              },
            }
          : {}),
      },
    },
  } as unknown as RunSummary;
}
