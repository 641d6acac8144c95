// The shared words of the telemetry: evidence as text, the CLI's block, wait groups, the live verdict's span.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { liveVerdict } from "./live";
import type { PaceSpec } from "./pace";
import { evidenceText, RunTelemetry, serverLine, telemetryText, TELEMETRY_CSV, verdictLine, waitGroup, waitMix } from "./report";
import type { TelemetrySample } from "./shape";
import { verdictOf } from "./verdict";
import { telemetryWindow } from "./window";

const sample = (over: Partial<TelemetrySample> = {}): TelemetrySample => ({
  time: "2026-01-01T00:00:00.000Z",
  intervalSec: 1,
  run: { total: 10, active: 9, idle: 1, idleInTx: 0 },
  runWaits: { "Lock:transactionid": 7, CPU: 2 },
  other: { total: 0, active: 0, idle: 0, idleInTx: 0 },
  otherWaits: {},
  lockWaits: 7,
  runLockWaits: 7,
  wal: { bytesPerSec: 2 * 1024 * 1024, recordsPerSec: 4000, syncsPerSec: 120 },
  db: {
    commitsPerSec: 800,
    rollbacksPerSec: 0,
    insertedPerSec: 800,
    updatedPerSec: 800,
    deletedPerSec: 0,
    blocksReadPerSec: 0,
    blocksHitPerSec: 9000,
    deadlocks: 0,
  },
  client: { cpuPct: 30, eventLoopUtilization: 0.3, eventLoopDelayMaxMs: 11 },
  overhead: { statements: 6, ms: 3 },
  ...over,
});

describe("words", () => {
  test("evidence reads as value, threshold and whether it held", () => {
    assert.equal(evidenceText({ what: "share", value: 0.62, unit: "ratio", threshold: 0.3, cmp: "≥", holds: true }), "share 62% (≥ 30%) ✓");
    assert.equal(evidenceText({ what: "runner CPU", value: 45.25, unit: "%", threshold: 90, cmp: "≥", holds: false }), "runner CPU 45.3% (≥ 90%) ✗");
    assert.equal(evidenceText({ what: "WAL syncs", value: 1234.4, unit: "/s" }), "WAL syncs 1,234 /s");
  });

  test("the CLI block: verdict, evidence, what the server did, what was not measured; it parses as the summary's shape", () => {
    const window = telemetryWindow([sample(), sample()])!;
    const t = {
      info: { serverVersionNum: 180004, monitor: false, host: { available: false, reason: "remote" }, missing: ["GRANT pg_monitor TO bench;"] },
      window,
      verdict: verdictOf({ telemetry: window }),
    };
    assert.ok(RunTelemetry.safeParse(t).success);
    const text = telemetryText(t);
    assert.match(text, /^why this number: lock-contention-bound: 78% of the run's active backends/);
    assert.match(text, /evidence: share of active waits on Lock:\* 78% \(≥ 30%\) ✓/);
    assert.match(text, /database: 800 commits\/s/);
    assert.match(text, /WAL: 2 MiB\/s, 4,000 records\/s, 120 syncs\/s/);
    assert.match(text, /not measured: GRANT pg_monitor TO bench;/);
    assert.match(text, /blind spot: the server host's CPU and disks are not visible/);
    // Compare's one-line cells.
    assert.equal(serverLine(window), "connections active 90% (Lock:transactionid 78%, CPU 22%); 800 commits/s; WAL 2 MiB/s");
    assert.equal(
      verdictLine(t),
      "lock-contention-bound: share of time the run's connections were active 90% (≥ 30%) ✓; share of active waits on Lock:* 78% (≥ 30%) ✓",
    );
  });

  test("wait groups and CSV columns", () => {
    assert.equal(waitGroup("LWLock:WALWrite"), "walFlush");
    assert.equal(waitGroup("IO:DataFileRead"), "io");
    assert.equal(waitGroup("LWLock:BufferContent"), "lwlock");
    assert.equal(waitGroup("Timeout:PgSleep"), "other");
    assert.equal(waitGroup("IPC:SyncRep"), "syncRep");
    assert.deepEqual(waitMix({ "Lock:tuple": 2, "Lock:transactionid": 1, CPU: 4 }), { cpu: 4, lock: 3, walFlush: 0, syncRep: 0, io: 0, lwlock: 0, other: 0 });
    const names = TELEMETRY_CSV.map((c) => c.name);
    assert.equal(new Set(names).size, names.length, "unique columns");
    assert.ok(names.includes("pg_run_wait_wal_flush"));
    assert.ok(names.includes("pg_run_wait_sync_rep"));
    assert.equal(TELEMETRY_CSV.find((c) => c.name === "pg_commits_s")!.value(sample()), 800);
    assert.equal(TELEMETRY_CSV.find((c) => c.name === "host_cpu_pct")!.value(sample()), undefined);
  });
});

describe("live verdict", () => {
  test("waits for five seconds of telemetry, then judges the last ten", () => {
    const op = (count: number) => ({ count, perSecond: count, errors: 0, latency: {} });
    const m = (i: number) => ({
      telemetry: sample({ time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }),
      operations: { write: op(100), read: op(100) },
      measures: { backlog: 0 },
      intervalSec: 1,
    });
    const spec = (perSec: number): PaceSpec => ({
      kind: perSec ? "throttle" : "unpaced",
      targetPerSec: perSec,
      unit: "msg",
      operation: "write",
      label: "write",
      backlog: true,
    });
    assert.equal(liveVerdict([m(0), m(1), m(2), m(3)], spec(0)), null);
    const five = liveVerdict([0, 1, 2, 3, 4].map(m), spec(0))!;
    assert.equal(five.verdict.category, "lock-contention-bound");
    const many = liveVerdict(
      Array.from({ length: 30 }, (_, i) => m(i)),
      spec(100),
    )!;
    assert.equal(many.seconds, 10);
    // 100 writes a second against a throttle of 100, but 90% of the connections active: no headroom, not rate-bound.
    assert.equal(many.verdict.category, "lock-contention-bound");
    assert.ok(many.verdict.findings.find((f) => f.category === "rate-bound")!.evidence.some((e) => e.what === "writes achieved / rate asked" && e.value === 1));
  });
});
