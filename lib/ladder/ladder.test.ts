// The synchronous commit ladder's plan and figures on known numbers: the balanced order (rounds up, then down the
// levels), the levels parsed and refused by name, and each level's figures: percentiles from the repeats' merged
// histograms (not the mean of their percentiles), the interval from the repeats' own figures, the throughput over
// all the measured seconds, SyncRep waits and each standby's lag, what a commit waited for, the 2016 ladder beside.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tInterval } from "../compare/ab-stats";
import type { RunSummary } from "../measurement/summary";
import type { SyncCommitLevel } from "../sync-commit";
import { type LadderSlot, ladderOrder, ladderOrderText, parseLevels, Repeats } from "./order";
import { ladderStats } from "./stats";
import { ladderSummary as summary } from "./testing";
import { fmtLevelFigure, fmtStandbyLag, ladderText } from "./text";

test("the ladder runs round after round, up the levels then down, so no level always goes first or last", () => {
  const order = ladderOrder(["off", "local", "on"], 3);
  assert.deepEqual(
    order.map((s) => `${s.round}:${s.level}`),
    ["1:off", "1:local", "1:on", "2:on", "2:local", "2:off", "3:off", "3:local", "3:on"],
  );
  assert.equal(ladderOrderText(order), "off → local → on, then on → local → off, then off → local → on");
  // Over two rounds each level runs first or last once: its mean position is the middle.
  const five = ladderOrder(["off", "local", "remote_write", "on", "remote_apply"], 2);
  for (const level of ["off", "local", "remote_write", "on", "remote_apply"]) {
    const positions = five.filter((s) => s.level === level).map((s) => five.filter((x) => x.round === s.round).indexOf(s));
    assert.equal(positions.reduce((a, b) => a + b, 0) / positions.length, 2, level);
  }
  assert.equal(Repeats.parse(undefined), 3);
  assert.match(Repeats.safeParse(0).error?.issues[0].message ?? "", /^repeats must be at least 1/);
  assert.match(Repeats.safeParse(11).error?.issues[0].message ?? "", /^repeats must be at most 10/);
});

test("levels are taken in the ladder's order, each once; a word that is no level is named with the choices", () => {
  assert.deepEqual(parseLevels("on, off,remote_apply,off"), { ok: true, levels: ["off", "on", "remote_apply"] });
  assert.deepEqual(parseLevels("off,remote_flush"), {
    ok: false,
    message: `"remote_flush" is not a synchronous_commit level: use off, local, remote_write, on or remote_apply`,
  });
  assert.deepEqual(parseLevels(" , "), { ok: false, message: "name at least one level: off, local, remote_write, on or remote_apply" });
});

test("a level's percentiles come from its repeats' merged histograms; its interval from the repeats' own figures", () => {
  // Round 1: writes of 1 ms ×99 and one of 100 ms; round 2: 3 ms ×100. Merged, p99 is 3 ms (the 200 writes' 198th);
  // the mean of the repeats' p99s would be (1 + 3) ÷ 2 = 2 ms, a figure no write had.
  const r1 = summary("on", [...Array(99).fill(1), 100], Array(100).fill(5), 1000, { share: 0.2, replayP50: 0.3, replayMax: 2 });
  const r2 = summary("on", Array(100).fill(3), Array(100).fill(7), 1200, { share: 0.4, replayP50: 0.5, replayMax: 9 });
  const off = summary("off", Array(100).fill(0.5), Array(100).fill(2), 2000, { share: 0, replayP50: 0.1, replayMax: 1 });
  const slots: LadderSlot[] = [
    { round: 1, level: "off", runId: "r_off1" },
    { round: 1, level: "on", runId: "r_on1" },
    { round: 2, level: "on", runId: "r_on2" },
    { round: 2, level: "off", runId: "r_off2" },
  ];
  const runs: Record<string, RunSummary> = { r_off1: off, r_on1: r1, r_on2: r2, r_off2: off };
  const st = ladderStats(slots, (id) => ({ status: "completed", summary: runs[id] }))!;
  assert.deepEqual(
    st.measures.map((m) => [m.name, m.role]),
    [
      ["write", "commit"],
      ["e2e", "end-to-end"],
    ],
  );
  assert.equal(st.order, "off → on, then on → off");
  assert.deepEqual(
    st.levels.map((l) => l.level),
    ["off", "on"],
  );
  const on = st.levels[1];
  assert.deepEqual(on.runIds, ["r_on1", "r_on2"]);
  const p99 = on.latencies[0].p99;
  assert.ok(Math.abs(p99.pooled! - 3) < 0.01, `merged p99 ${p99.pooled}`);
  assert.deepEqual(p99.perRun, [1, 3]);
  assert.deepEqual(p99.ci, tInterval([1, 3]));
  // Throughput: 2,200 writes over 20 s; the interval of the repeats' 100/s and 120/s.
  assert.equal(on.throughput.pooled, 110);
  assert.deepEqual(on.throughput.ci, tInterval([100, 120]));
  // Two repeats: t(1) = 12.706 makes the interval −17 … 237, shown from 0 (a rate is never below it).
  assert.equal(fmtLevelFigure(on.throughput, "rate"), "110 [0–237]");
  // SyncRep waits: the repeats' mean share; each standby's median lag as the repeats' range, its largest lag.
  assert.ok(Math.abs(on.syncRepShare!.pooled! - 0.3) < 1e-9);
  assert.deepEqual(on.standbys[0].replayMs, { p50Low: 0.3, p50High: 0.5, max: 9 });
  assert.equal(fmtStandbyLag(on.standbys[0]), "pg2 (sync): replay p50 0.30–0.50 ms, max 9.00 ms");
  assert.equal(st.standbys, "some");
  // What a commit waited for, and the 2016 ladder beside each level, relative to off.
  assert.equal(st.levels[0].waitsFor, "nothing (asynchronous commit)");
  assert.equal(on.waitsFor, "local WAL flush + standby flush");
  assert.equal(st.base, "off");
  assert.equal(on.reference?.tps, 3329);
  assert.ok(Math.abs(on.relative!.ours! - 110 / 200) < 1e-9 && Math.abs(on.relative!.reference! - 3329 / 6211) < 1e-9);
  const text = ladderText(st);
  assert.match(text, /^synchronous commit ladder \(pubsub\): 2 repeats of each level, order off → on, then on → off\n/);
  assert.match(text, /\non {2,}2 +3(\.00)? ms \[/);
  assert.match(
    text,
    /2016 ladder: pgbench on PostgreSQL 9\.6 \(Cybertec, 2016\), https:\/\/www\.cybertec-postgresql\.com\/.*transactions per second only: no latencies were published/,
  );
});

test("without standbys the ladder says so, and what remote levels waited for; a run without its level is named", () => {
  const plain = (level: SyncCommitLevel) => summary(level, [1, 2], [3, 4], 10);
  const slots: LadderSlot[] = [
    { round: 1, level: "local", runId: "r_a" },
    { round: 1, level: "remote_apply", runId: "r_b" },
    { round: 1, level: "on", runId: "r_c" },
  ];
  const wrongLevel = plain("on");
  (wrongLevel.manifest.serverSettings as Record<string, string>).synchronous_commit = "off";
  const runs: Record<string, RunSummary> = { r_a: plain("local"), r_b: plain("remote_apply"), r_c: wrongLevel };
  const st = ladderStats(slots, (id) => (id === "r_b" ? { status: "failed" } : { status: "completed", summary: runs[id] }))!;
  assert.equal(st.standbys, "none");
  assert.deepEqual(
    st.levels.map((l) => [l.level, l.waitsFor, l.syncRepShare]),
    [
      ["local", "local WAL flush", null],
      ["on", "local WAL flush", null],
    ],
  );
  assert.ok(st.notes.some((n) => n.startsWith("No standbys: the target had none, so remote_write, on and remote_apply waited for the local WAL flush only")));
  assert.ok(st.notes.includes("Left out: remote_apply in round 1 (r_b): the run did not complete."), st.notes.join("\n"));
  assert.ok(st.notes.some((n) => n.startsWith("Not at its level: r_c (on)")));
  assert.ok(st.notes.some((n) => n.startsWith("One repeat: no interval")));
  assert.match(ladderText(st), /\nlag per standby: no standbys\n/);
  assert.equal(
    ladderStats(slots, () => ({ status: "failed" })),
    null,
  );
});
