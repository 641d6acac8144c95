// Replication over a window, from readings with the numbers a primary with two standbys gives (FIRST 1 (pg2, pg3),
// an embedded cluster on one machine): each standby's lag, the events (a standby stopping, another taking over, a
// stall while none streams, a paused replay) and the verdict's replication-bound rule. The same conclusions on real
// servers: runner/telemetry/replication-runs.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eventsOf } from "./replication";
import { eventWords, replicationLines } from "./replication-words";
import { explainVerdict, replicatedReading as reading, SYNC_NAMES as NAMES, standbyReading as standby, standbyReading, windowOf } from "./testing";
import { verdictOf } from "./verdict";
import { telemetryWindow } from "./window";

const both = () => [standby("pg2", "sync"), standby("pg3", "potential")];

describe("lag per standby", () => {
  test("each standby's replay lag in bytes and time (median and largest), its sync states; a missing lag time counted, not read as 0", () => {
    const samples = [0, 1, 2, 3, 4].map((i) =>
      reading(i, [
        standby("pg2", "sync", { replayLagBytes: 1_000 * (i + 1), replayLagMs: i === 4 ? null : 0.5 * (i + 1) }),
        standby("pg3", "potential", { replayLagBytes: 40_000, replayLagMs: 12 }),
      ]),
    );
    const r = telemetryWindow(samples)!.replication!;
    assert.equal(r.synchronousStandbyNames, NAMES);
    assert.deepEqual(
      r.standbys.map((s) => s.name),
      ["pg2", "pg3"],
    );
    const [pg2, pg3] = r.standbys;
    assert.deepEqual(pg2.syncStates, ["sync"]);
    assert.equal(pg2.replayLagBytes!.max, 5_000);
    assert.ok(Math.abs(pg2.replayLagBytes!.p50 - 3_000) <= 30, `p50 ${pg2.replayLagBytes!.p50}`);
    assert.equal(pg2.replayLagMs!.max, 2);
    assert.equal(pg2.lagTimeNullSec, 1, "the reading with no lag time is counted as such");
    assert.equal(pg3.replayLagMs!.p50, 12);
    assert.equal(pg3.streamingSec, 5);
    assert.deepEqual(r.events, []);
    const lines = replicationLines(r, 5).join("\n");
    assert.match(lines, /standby pg2 \(sync\): replay lag p50 2\.9 KiB, max 4\.9 KiB/);
    assert.match(lines, /no lag time in 1 s of it: caught up and idle/);
  });

  test("a target without standbys records none: the window has no replication", () => {
    const w = telemetryWindow([0, 1, 2].map((i) => reading(i, undefined)))!;
    assert.equal(w.replication, undefined);
  });
});

describe("events", () => {
  test("the synchronous standby stops: named and timed, the potential one becomes synchronous, no stall", () => {
    const samples = [
      ...[0, 1, 2, 3].map((i) => reading(i, both())),
      // The reading after pg2 stopped: commits waited a moment, and pg3 confirms them now.
      reading(4, [standby("pg3", "sync")], { syncRep: 3 }),
      ...[5, 6, 7].map((i) => reading(i, [standby("pg3", "sync")])),
    ];
    const r = telemetryWindow(samples)!.replication!;
    const words = r.events.map(eventWords);
    assert.deepEqual(words, [
      "pg2 stopped streaming at 5 s; it was the synchronous standby",
      "pg3 became the synchronous standby at 5 s (was a potential synchronous standby)",
    ]);
    assert.deepEqual(eventsOf(r, "replication-stall"), []);
    assert.deepEqual(r.standbys.find((s) => s.name === "pg3")!.syncStates, ["potential", "sync"]);
  });

  test("both standbys stop: the stall is named and timed, and ends when one streams again", () => {
    const samples = [
      ...[0, 1, 2].map((i) => reading(i, both())),
      ...[3, 4, 5, 6].map((i) => reading(i, [], { syncRep: 8, commits: i === 3 ? 300 : 2 })),
      reading(7, [standby("pg2", "async", { state: "catchup", replayLagBytes: 900_000, replayLagMs: null })], { syncRep: 8, commits: 1 }),
      ...[8, 9].map((i) => reading(i, [standby("pg2", "sync")])),
    ];
    const r = telemetryWindow(samples)!.replication!;
    const [stall] = eventsOf(r, "replication-stall");
    assert.ok(stall, JSON.stringify(r.events));
    assert.equal(stall.fromSec, 3);
    assert.equal(stall.toSec, 8);
    assert.equal(stall.seconds, 5);
    assert.equal(stall.ongoing, false);
    assert.equal(stall.commitsPerSecMin, 1);
    assert.equal(
      eventWords(stall),
      "commits waited for a synchronous standby for 5 s, 3–8 s: none of FIRST 1 (pg2, pg3) was streaming (the run's connections waiting on SyncRep: 8 on average, up to 8, commits down to 1/s)",
    );
    assert.deepEqual(r.events.filter((e) => e.kind !== "replication-stall").map(eventWords), [
      "pg2 stopped streaming at 4 s; it was the synchronous standby",
      "pg3 stopped streaming at 4 s; it was a potential synchronous standby",
      "pg2 started streaming at 9 s, as the synchronous standby",
    ]);
  });

  test("a stall still going at the window's end is reported as ongoing; one reading of waits is not a stall", () => {
    const ongoing = telemetryWindow([reading(0, both()), ...[1, 2, 3].map((i) => reading(i, [], { syncRep: 8 }))])!.replication!;
    assert.equal(eventsOf(ongoing, "replication-stall")[0]?.ongoing, true);
    const blip = telemetryWindow([reading(0, both()), reading(1, [], { syncRep: 8 }), reading(2, both())])!.replication!;
    assert.deepEqual(eventsOf(blip, "replication-stall"), []);
    // A reading the wait sampler did not read (ticks 0) neither ends a stall nor counts in it.
    const gap = { ...reading(2, [], { syncRep: 8 }), ticks: 0 };
    const through = telemetryWindow([reading(0, both()), reading(1, [], { syncRep: 8 }), gap, reading(3, [], { syncRep: 8 }), reading(4, both())])!;
    assert.deepEqual(
      eventsOf(through.replication, "replication-stall").map((e) => [e.fromSec, e.toSec]),
      [[1, 4]],
    );
  });

  test("a paused replay: replay lag grows while write and flush keep up, named with its figures; a standby that replays keeps up is not", () => {
    // 320 KB of WAL a second; pg3 flushes it at once but replays none of it from the second reading on.
    const lsn = (i: number) => 24_000_000 + i * 320_000;
    const stuck = lsn(1) - 2_912;
    const samples = [0, 1, 2, 3, 4, 5].map((i) =>
      reading(i, [standby("pg2", "sync"), standby("pg3", "potential", i >= 2 ? { replayLagBytes: lsn(i) - stuck, replayLagMs: 1_070 * (i - 1) } : {})]),
    );
    const r = telemetryWindow(samples)!.replication!;
    const behind = eventsOf(r, "replay-behind");
    assert.equal(behind.length, 1, JSON.stringify(r.events));
    const [e] = behind;
    assert.equal(e.standby, "pg3");
    assert.equal(e.replayedBytes, 0);
    assert.equal(e.ongoing, true);
    assert.equal(e.replayGapEndBytes, lsn(5) - stuck);
    assert.match(
      eventWords(e),
      /^pg3 fell behind replaying for 4 s, 2–6 s \(still so at the window's end\): WAL flushed there and not replayed grew from 315\.3 KiB to 1\.2 MiB \(its replay did not advance, replay_lag up to 4\.28 s\), while its writes and flushes kept up \(their lag at most 0 B, flush_lag up to 0\.43 ms\)$/,
    );
  });
});

test("a stuck replay is named even once no WAL arrives (commits waiting for it write none)", () => {
  // From the third reading the primary's position stands still 200 KB past pg2's replay, all flushed there.
  const at = 24_640_000;
  const samples = [0, 1, 2, 3, 4, 5]
    .map((i) =>
      reading(
        Math.min(i, 2),
        [standbyReading("pg2", "sync", i >= 2 ? { replayLagBytes: 200_000, replayLagMs: 900 * (i - 1) } : {}), standbyReading("pg3", "potential")],
        {
          lsn: i < 2 ? undefined : at,
          syncRep: i >= 2 ? 8 : 0,
        },
      ),
    )
    .map((s, i) => ({ ...s, time: new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)).toISOString() }));
  const [e] = eventsOf(telemetryWindow(samples)!.replication, "replay-behind");
  assert.ok(e, "named");
  assert.equal(e.standby, "pg2");
  assert.deepEqual([e.fromSec, e.toSec, e.replayGapEndBytes], [2, 6, 200_000]);
  // Its commits waited on SyncRep meanwhile: the run's stall names the replay behind it.
  const spec = { kind: "throttle" as const, targetPerSec: 1000, unit: "msg", operation: "write", label: "write", backlog: false };
  const stall = { startSec: 2, seconds: 4, minRate: 0, expectedRate: 1000, catchUpSeconds: 0, catchUpPeakRate: 0 };
  const v = verdictOf({ telemetry: telemetryWindow(samples), pace: { spec, achievedPerSec: 400, facts: { seconds: 6, stalls: [stall] } } });
  assert.match(
    v.statement,
    /behind it: commits waited for a synchronous standby to replay them \(IPC:SyncRep, as synchronous_commit remote_apply makes them\) while pg2 fell behind replaying for 4 s/,
    explainVerdict(v),
  );
});

describe("the verdict", () => {
  const replicated = (syncRep: number, stall = false) => {
    const samples = [0, 1, 2, 3, 4, 5].map((i) => reading(i, stall && i >= 2 && i <= 4 ? [] : both(), { syncRep: stall && i >= 2 && i <= 4 ? 8 : syncRep }));
    return telemetryWindow(samples)!;
  };

  test("replication-bound when commits wait for a synchronous standby, with its evidence", () => {
    const v = verdictOf({ telemetry: replicated(5) });
    assert.equal(v.category, "replication-bound", explainVerdict(v));
    assert.match(
      v.statement,
      /^replication-bound: 71% of the run's active backends waited for a synchronous standby to confirm their commits \(IPC:SyncRep\) \(synchronous_standby_names 'FIRST 1 \(pg2, pg3\)'\); pg2 was the synchronous standby \(lag in time, p50: write 0\.21 ms, flush 0\.43 ms, replay 0\.61 ms\)/,
    );
    assert.ok(v.evidence.some((e) => e.what.startsWith("share of active waits on IPC:SyncRep") && e.holds === true));
  });

  test("not when commits do not wait (synchronous_commit local or off), nor on a single node", () => {
    const local = verdictOf({ telemetry: replicated(0) });
    assert.notEqual(local.category, "replication-bound", explainVerdict(local));
    assert.equal(local.findings.find((f) => f.category === "replication-bound")!.matched, false);
    const single = verdictOf({ telemetry: windowOf({ runActiveShare: 0.6, runWaitShares: { CPU: 0.7, "LWLock:WALWrite": 0.3 } }) });
    assert.equal(single.findings.find((f) => f.category === "replication-bound")!.matched, false);
  });

  test("a replication stall alone suffices, and the run's stall names it as what was behind it", () => {
    const w = replicated(0, true);
    const alone = verdictOf({ telemetry: w });
    assert.equal(alone.category, "replication-bound", explainVerdict(alone));
    assert.match(alone.statement, /commits waited for a synchronous standby for 3 s, 2–5 s: none of FIRST 1 \(pg2, pg3\) was streaming/);
    const spec = { kind: "throttle" as const, targetPerSec: 1000, unit: "msg", operation: "write", label: "write", backlog: false };
    const stall = { startSec: 2, seconds: 3, minRate: 0, expectedRate: 1000, catchUpSeconds: 1, catchUpPeakRate: 2000 };
    const v = verdictOf({ telemetry: w, pace: { spec, achievedPerSec: 990, facts: { seconds: 6, stalls: [stall] } } });
    assert.equal(v.category, "stall", explainVerdict(v));
    assert.match(v.statement, /; behind it: commits waited for a synchronous standby for 3 s, 2–5 s/);
    assert.ok(v.also.includes("replication-bound"));
  });
});
