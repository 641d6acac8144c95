// Each verdict rule on hand-made windows: it matches just past its threshold, not just short of it, and the
// evidence carries the numbers. The window aggregation is checked on samples.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { TelemetrySample } from "./shape";
import { THRESHOLDS, Verdict, verdictOf, type VerdictInput } from "./verdict";
import { windowOf } from "./testing";
import { slope, telemetryWindow } from "./window";

const win = windowOf;
const v = (input: VerdictInput) => verdictOf(input);
const find = (input: VerdictInput, cat: string) => v(input).findings.find((f) => f.category === cat)!;

describe("rules", () => {
  test("rate-bound: achieved the rate asked with headroom; not when short of it or when the server is busy", () => {
    const ok = v({ telemetry: win(), throttle: { perSec: 100, achievedPerSec: 99 } });
    assert.equal(ok.category, "rate-bound");
    assert.match(ok.statement, /reached 99 of the 100 msg\/s asked/);
    assert.ok(ok.evidence.some((e) => e.what === "writes achieved / rate asked" && e.value === 0.99 && e.holds));
    const short = v({ telemetry: win(), throttle: { perSec: 100, achievedPerSec: 94 } });
    assert.equal(short.category, "behind-schedule");
    assert.match(short.statement, /the writers did not keep up while the server had room/);
    assert.equal(find({ telemetry: win({ runActiveShare: 0.6 }), throttle: { perSec: 100, achievedPerSec: 100 } }, "rate-bound").matched, false);
    assert.equal(v({ throttle: { perSec: 0, achievedPerSec: 5000 } }).category, "undetermined");
  });

  test("a verdict stored as throttle-bound reads as rate-bound", () => {
    const stored = {
      category: "throttle-bound",
      statement: "throttle-bound: …",
      evidence: [],
      also: ["throttle-bound"],
      findings: [{ category: "throttle-bound", matched: true, evidence: [] }],
      blindSpots: [],
    };
    const read = Verdict.parse(stored);
    assert.equal(read.category, "rate-bound");
    assert.deepEqual(read.also, ["rate-bound"]);
    assert.equal(read.findings[0].category, "rate-bound");
  });

  test("a closed loop has no rate asked, and the rate-bound rule says so", () => {
    const r = v({
      telemetry: win(),
      pace: { spec: { kind: "closed-loop", unit: "req", operation: "total", label: "request", backlog: false }, achievedPerSec: 500 },
    });
    const f = r.findings.find((x) => x.category === "rate-bound")!;
    assert.equal(f.matched, false);
    assert.match(f.evidence[0].what, /no rate asked \(closed-loop\): requests achieved/);
    assert.equal(f.evidence[0].value, 500);
  });

  test("consumers behind: the headline over a missed rate and a client caution; a server-side limit stays the headline and names the backlog", () => {
    const pace = {
      spec: { kind: "throttle" as const, targetPerSec: 800, unit: "msg", operation: "write", label: "write", backlog: true },
      achievedPerSec: 800,
      writePerSec: 800,
      readPerSec: 176,
      unreadAtEnd: 7882,
      e2eP50Ms: 6600,
      facts: { seconds: 10, stalls: [], backlogSlopePerSec: 624, backlogEnd: 6240 },
    };
    const alone = v({ telemetry: win(), pace });
    assert.equal(alone.category, "consumers-behind");
    assert.match(
      alone.statement,
      /took 176 of the 800 msg\/s written; the backlog grew 624 msg\/s to 6,240 at the window's end, 7,882 unread after the drain, e2e p50 6.6 s/,
    );
    // A client caution (starved: it waited for a CPU and its loop delay reached the operation's own time, nothing at
    // its limit) is no category: the consumers stay the headline, the runner's delay a caution inside it.
    const caution = v({ telemetry: win(), pace, client: { runQueueWaitMsPerSec: 200, exposedDelayMs: 5, serviceMs: 2 } });
    assert.equal(caution.category, "consumers-behind");
    assert.ok(!caution.also.includes("client-bound"));
    assert.match(
      caution.caution ?? "",
      /^these latencies include up to 12\.0 ms of the runner's own delay: the runner was starved of CPU \(it waited 200 ms\/s/,
    );
    assert.ok(caution.statement.endsWith(`; ${caution.caution}`), caution.statement);
    const server = v({ telemetry: win({ runActiveShare: 0.8, runIdleShare: 0.2, runWaitShares: { "Lock:tuple": 0.6, CPU: 0.4 } }), pace });
    assert.equal(server.category, "lock-contention-bound");
    assert.match(server.statement, /; consumers behind: the consumers took 176/);
  });

  test("client-bound: runner CPU or event loop at its limit", () => {
    const cpu = v({ telemetry: win({ client: { cpuPct: THRESHOLDS.clientCpuPct, eventLoopUtilization: 0.5, eventLoopDelayMaxMs: 40 } }) });
    assert.equal(cpu.category, "client-bound");
    assert.ok(cpu.evidence.some((e) => e.what.startsWith("runner CPU") && e.value === 90 && e.holds));
    const elu = v({ telemetry: win(), client: { cpuPct: 50, eventLoopUtilization: 0.95 } });
    assert.equal(elu.category, "client-bound");
    assert.equal(v({ telemetry: win({ client: { cpuPct: 89, eventLoopUtilization: 0.89, eventLoopDelayMaxMs: 5 } }) }).category !== "client-bound", true);
    // Starvation: the runner waited for a CPU and its loop delay reached the operation's own service time (p50). It
    // inflates the latencies and limits nothing: a caution inside the verdict, never client-bound.
    const starved = v({ telemetry: win(), client: { cpuPct: 15, runQueueWaitMsPerSec: 300, exposedDelayMs: 12, serviceMs: 4 } });
    assert.notEqual(starved.category, "client-bound");
    assert.equal(starved.findings.find((f) => f.category === "client-bound")?.matched, false);
    assert.match(starved.caution ?? "", /starved of CPU \(it waited 300 ms\/s for a CPU, its event-loop delay \(12 ms\) reached 3× the operation's own 4 ms\)/);
    assert.doesNotMatch(starved.statement, /was the limit/);
    // At its limit while the rate asked was met: it did not limit that rate (a caution, "busy"); missed, it did.
    const asked = (achievedPerSec: number) => ({
      spec: { kind: "open-loop" as const, targetPerSec: 6400, unit: "req", operation: "request", label: "request", backlog: false },
      achievedPerSec,
    });
    const met = v({ telemetry: win({ runActiveShare: 0.2, runIdleShare: 0.8 }), pace: asked(6400), client: { cpuPct: 97, exposedDelayMs: 3, serviceMs: 0.4 } });
    assert.equal(met.category, "rate-bound", met.statement);
    assert.match(
      met.caution ?? "",
      /^these latencies include up to 12\.0 ms of the runner's own delay: the runner was busy \(its CPU reached 97% of one core.*\), and the rate asked was met: the runner did not limit it$/,
    );
    const missed = v({
      telemetry: win({ runActiveShare: 0.2, runIdleShare: 0.8 }),
      pace: asked(4000),
      client: { cpuPct: 97, exposedDelayMs: 3, serviceMs: 0.4 },
    });
    assert.equal(missed.category, "client-bound", missed.statement);
    assert.match(missed.statement, /^client-bound: the runner was the limit \(its CPU reached 97% of one core/);
    assert.equal(missed.caution, undefined);
    // A delay that a p99 would have flagged (3 ms in a 20 ms p99) is not starvation against a 5 ms service time,
    // nor is a long wait for a CPU whose delay stays below the operation's own time.
    assert.notEqual(
      v({ telemetry: win(), client: { cpuPct: 15, runQueueWaitMsPerSec: 300, exposedDelayMs: 3, serviceMs: 5, mainP99Ms: 20 } }).category,
      "client-bound",
    );
    assert.notEqual(v({ telemetry: win(), client: { cpuPct: 15, runQueueWaitMsPerSec: 20, exposedDelayMs: 12, serviceMs: 4 } }).category, "client-bound");
    // A loop "busy" while waiting for a CPU is starvation, not saturation: it yields to a server-side limit.
    const wal = win({ runActiveShare: 0.8, runIdleShare: 0.2, runWaitShares: { "LWLock:WALWrite": 0.7, CPU: 0.3 } });
    const both = v({ telemetry: wal, client: { cpuPct: 10, eventLoopUtilization: 0.97, runQueueWaitMsPerSec: 900, exposedDelayMs: 50, serviceMs: 10 } });
    assert.equal(both.category, "wal-flush-bound");
    assert.deepEqual(both.also, []);
    assert.match(both.statement, /^WAL-flush-bound: .*; these latencies include up to 12\.0 ms of the runner's own delay: the runner was starved of CPU/);
    // A busy runner does not yield.
    assert.equal(v({ telemetry: wal, client: { cpuPct: 95 } }).category, "client-bound");
    // Without telemetry the client's numbers alone still decide it.
    assert.equal(v({ client: { cpuPct: 99 } }).category, "client-bound");
  });

  test("lock-contention-bound: Lock waits dominate the active backends", () => {
    const w = win({ runActiveShare: 0.9, runWaitShares: { "Lock:transactionid": 0.6, CPU: 0.4 }, lockWaitsAvg: 7 });
    const r = v({ telemetry: w });
    assert.equal(r.category, "lock-contention-bound");
    assert.match(r.statement, /60% of the run's active backends waited on heavyweight locks \(Lock:transactionid 60%/);
    assert.ok(r.evidence.some((e) => e.what === "ungranted locks, average" && e.value === 7));
    assert.equal(find({ telemetry: { ...w, runWaitShares: { "Lock:tuple": 0.29, CPU: 0.71 } } }, "lock-contention-bound").matched, false);
    assert.equal(find({ telemetry: { ...w, runActiveShare: 0.29 } }, "lock-contention-bound").matched, false);
  });

  test("WAL-flush-bound: WALWrite/WalSync waits dominate, with sync time as evidence", () => {
    const w = win({
      runActiveShare: 0.8,
      runWaitShares: { "LWLock:WALWrite": 0.5, "IO:WalSync": 0.2, CPU: 0.3 },
      wal: { bytesPerSec: 5e6, syncsPerSec: 300, syncMsPerSec: 800 },
    });
    const r = v({ telemetry: w });
    assert.equal(r.category, "wal-flush-bound");
    assert.match(r.statement, /70% of the run's active backends waited on the WAL flush .*WAL sync time 800 ms\/s/);
    assert.ok(r.evidence.some((e) => e.what === "WAL syncs" && e.value === 300));
    assert.equal(find({ telemetry: { ...w, runWaitShares: { "LWLock:WALWrite": 0.2, CPU: 0.8 } } }, "wal-flush-bound").matched, false);
  });

  test("server-side limits compete on their share: the larger one wins, the other is 'also'", () => {
    const r = v({
      telemetry: win({ runActiveShare: 0.9, runIdleShare: 0.1, runWaitShares: { "Lock:transactionid": 0.35, "LWLock:WALWrite": 0.45, CPU: 0.2 } }),
    });
    assert.equal(r.category, "wal-flush-bound");
    assert.deepEqual(r.also, ["lock-contention-bound"]);
  });

  test("I/O-bound server: data-file reads dominate, or the host's disk is saturated", () => {
    const waits = v({ telemetry: win({ runActiveShare: 0.7, runWaitShares: { "IO:DataFileRead": 0.6, CPU: 0.4 } }) });
    assert.equal(waits.category, "io-bound-server");
    const host = win({
      runActiveShare: 0.7,
      runWaitShares: { CPU: 1 },
      host: { cpuBusyPct: 30, iowaitPct: 35, serverCpuCores: 0.3, cores: 2, diskReadBytesPerSec: 9e7, diskWriteBytesPerSec: 0, diskBusyPct: 97 },
    });
    assert.equal(find({ telemetry: host }, "io-bound-server").matched, true);
    assert.equal(find({ telemetry: { ...host, host: { ...host.host!, iowaitPct: 5 } } }, "io-bound-server").matched, false);
    // WAL I/O is the WAL rule's, not this one's.
    assert.equal(find({ telemetry: win({ runActiveShare: 0.7, runWaitShares: { "IO:WalSync": 0.9, CPU: 0.1 } }) }, "io-bound-server").matched, false);
  });

  test("CPU-bound server: connections active on CPU and the server's processes using the host's cores", () => {
    const w = win({
      runActiveShare: 0.9,
      runWaitShares: { CPU: 0.9, "LWLock:WALInsert": 0.1 },
      host: { cpuBusyPct: 95, iowaitPct: 0, serverCpuCores: 1.7, cores: 2, diskReadBytesPerSec: 0, diskWriteBytesPerSec: 0, diskBusyPct: 3 },
    });
    const r = v({ telemetry: w });
    assert.equal(r.category, "cpu-bound-server");
    assert.match(r.statement, /used 1\.7 of 2 cores/);
    assert.equal(find({ telemetry: { ...w, host: { ...w.host!, serverCpuCores: 0.4, cpuBusyPct: 40 } } }, "cpu-bound-server").matched, false);
    // A remote server: inferred from the waits alone, and the verdict says so.
    const remote = v({ telemetry: { ...w, host: undefined } });
    assert.equal(remote.category, "cpu-bound-server");
    assert.match(remote.statement, /host CPU not visible: inferred from wait events/);
    assert.ok(remote.blindSpots.some((b) => /remote target/.test(b)));
  });

  test("autovacuum/bloat pressure: many dead tuples rising with no autovacuum in two naptimes, or the xmin horizon held", () => {
    const tables = {
      deadTuplesStart: 1000,
      deadTuplesEnd: 50_000,
      deadTuplesMax: 50_000,
      liveTuplesEnd: 20_000,
      deadTuplesSlopePerSec: 4900,
      autovacuumRuns: 0,
      autoanalyzeRuns: 1,
    };
    assert.equal(v({ telemetry: win({ tables, seconds: 120 }) }).category, "autovacuum-pressure");
    // The same dead tuples in a 10 s window: autovacuum has not had its chance yet, and nothing slowed.
    assert.equal(find({ telemetry: win({ tables }) }, "autovacuum-pressure").matched, false);
    assert.equal(find({ telemetry: win({ tables: { ...tables, deadTuplesSlopePerSec: -10 } }) }, "autovacuum-pressure").matched, false);
    assert.equal(find({ telemetry: win({ tables: { ...tables, deadTuplesEnd: 9_000 } }) }, "autovacuum-pressure").matched, false);
    // A window stored before the holder was recorded: the oldest transaction alone is a held snapshot (its own category now).
    const held = v({ telemetry: win({ oldestXactSecMax: 120, xminAgeXidsMax: 40_000 }) });
    assert.equal(held.category, "held-snapshot");
    assert.match(held.statement, /a transaction open 120 s held the xmin horizon/);
  });

  test("held snapshot: the dequeue slowed beyond what the leading wait's share explains, so the holder leads", () => {
    // The issue's run: WAL flush 42% of the waits, each dequeue 0.36 ms → 3 ms as a transaction (opened inside the
    // window) held the horizon, and the readers fell behind.
    const spec = {
      kind: "throttle" as const,
      targetPerSec: 1000,
      unit: "msg",
      operation: "write",
      label: "write",
      backlog: true,
      consumer: { claim: "claim", read: "read", readIncludesClaim: true },
    };
    const pace = {
      spec,
      achievedPerSec: 1000,
      writePerSec: 1000,
      readPerSec: 400,
      facts: {
        seconds: 30,
        stalls: [],
        backlogSlopePerSec: 600,
        backlogEnd: 18_000,
        firstThird: { rate: 1000, claimP50Ms: 0.36 },
        lastThird: { rate: 1000, claimP50Ms: 3 },
      },
    };
    const holder = { pid: 4242, applicationName: "psql", state: "idle in transaction", query: "SELECT 1", xactSec: 25, heldSec: 25, fromStart: false };
    const telemetry = win({ seconds: 30, runActiveShare: 0.8, runIdleShare: 0.2, runWaitShares: { "LWLock:WALWrite": 0.42, CPU: 0.58 }, xminHolder: holder });
    const r = v({ telemetry, pace });
    assert.equal(r.category, "held-snapshot", r.statement);
    assert.match(r.statement, /pid 4242, application "psql", idle in transaction/);
    assert.match(r.statement, /idle_in_transaction_session_timeout/);
    assert.ok(r.also.includes("wal-flush-bound") && r.also.includes("consumers-behind"), r.also.join());
    // A slowdown the WAL wait could explain (0.36 → 0.5 ms) is not the holder's: it does not lead.
    const mild = { ...pace, facts: { ...pace.facts, lastThird: { rate: 1000, claimP50Ms: 0.5 } } };
    assert.notEqual(v({ telemetry, pace: mild }).category, "held-snapshot");
    // The run's own hold-xmin phase held it (its session's application_name names it): said so, not "end it".
    const phase = win({ ...telemetry, xminHolder: { ...holder, applicationName: "pgbb phase hold-xmin@5s+20s" } });
    const own = v({ telemetry: phase, pace });
    assert.equal(own.category, "held-snapshot", own.statement);
    assert.match(
      own.statement,
      /: the run's own phase hold-xmin@5s\+20s held it, as asked; in production, bound such sessions with idle_in_transaction_session_timeout/,
    );
    assert.doesNotMatch(own.statement, /pg_terminate_backend/);
    // A phase's hold of 12 s inside a 30 s window, nothing slowed: found (in "also"), not leading; another session
    // holding it as long is no finding.
    const short = { ...holder, applicationName: "pgbb phase hold-xmin@5s+12s", xactSec: 12, heldSec: 12 };
    const quiet = v({ telemetry: win({ ...telemetry, xminHolder: short }), pace: mild });
    assert.notEqual(quiet.category, "held-snapshot");
    assert.ok(quiet.also.includes("held-snapshot"), quiet.also.join());
    const someoneElse = v({ telemetry: win({ ...telemetry, xminHolder: { ...short, applicationName: "psql" } }), pace: mild });
    assert.ok(!someoneElse.also.includes("held-snapshot"), "a 12 s holder that is not the run's phase is no finding");
  });

  test("connection-bound: connections wait on the client while the runner is not busy", () => {
    const r = v({ telemetry: win() });
    assert.equal(r.category, "connection-bound");
    assert.match(r.statement, /10 connections waited on the client 90% of the time/);
    // A throttled run that met its throttle is rate-bound, never connection-bound.
    assert.equal(find({ telemetry: win(), throttle: { perSec: 100, achievedPerSec: 100 } }, "connection-bound").matched, false);
    // A busy runner is client-bound instead.
    assert.equal(v({ telemetry: win({ client: { cpuPct: 95, eventLoopUtilization: 0.5, eventLoopDelayMaxMs: 1 } }) }).category, "client-bound");
  });

  test("undetermined: no rule holds, and the statement says what was seen", () => {
    const r = v({
      telemetry: win({ runActiveShare: 0.55, runIdleShare: 0.3, runIdleInTxShare: 0.15, runWaitShares: { CPU: 0.45, "LWLock:BufferContent": 0.55 } }),
    });
    assert.equal(r.category, "undetermined");
    assert.match(r.statement, /active 55% of the time; top waits LWLock:BufferContent 55%/);
    assert.equal(v({}).statement, "undetermined: no server telemetry for this window");
  });
});

describe("window", () => {
  const sample = (i: number, over: Partial<TelemetrySample> = {}): TelemetrySample => ({
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    intervalSec: 1,
    run: { total: 4, active: 2, idle: 2, idleInTx: 0 },
    runWaits: { CPU: 1, "Lock:tuple": 1 },
    other: { total: 1, active: 0, idle: 1, idleInTx: 0 },
    otherWaits: {},
    lockWaits: i,
    runLockWaits: 1,
    wal: { bytesPerSec: 1000 * (i + 1) },
    db: { commitsPerSec: 10, rollbacksPerSec: 0, insertedPerSec: 5, updatedPerSec: 0, deletedPerSec: 0, blocksReadPerSec: 0, blocksHitPerSec: 1, deadlocks: 0 },
    tables: { liveTuples: 5, deadTuples: 100 * i, autovacuumRuns: i === 2 ? 1 : 0, autoanalyzeRuns: 0 },
    overhead: { statements: 6, ms: 2 },
    ...over,
  });

  test("rates are weighted by interval, shares are of backend-samples, dead tuples' slope per second", () => {
    const w = telemetryWindow([sample(0), sample(1, { intervalSec: 3 }), sample(2)])!;
    assert.equal(w.seconds, 5);
    assert.equal(w.wal!.bytesPerSec, (1000 + 2000 * 3 + 3000) / 5);
    assert.equal(w.runActiveShare, 0.5);
    assert.deepEqual(w.runWaitShares, { CPU: 0.5, "Lock:tuple": 0.5 });
    assert.equal(w.tables!.deadTuplesSlopePerSec, 100);
    assert.equal(w.tables!.autovacuumRuns, 1);
    assert.equal(w.lockWaitsMax, 2);
    assert.equal(w.overhead.statementsPerSec, 18 / 5);
  });

  test("a group some samples lack is left out rather than averaged over part of the window", () => {
    const w = telemetryWindow([sample(0), sample(1, { wal: undefined, host: undefined })])!;
    assert.equal(w.wal, undefined);
    assert.equal(w.host, undefined);
    assert.equal(telemetryWindow([]), undefined);
  });

  test("slope", () => {
    assert.equal(
      slope([
        [0, 1],
        [1, 3],
        [2, 5],
      ]),
      2,
    );
    assert.equal(slope([[0, 1]]), 0);
  });
});
