// The sync states synchronous_standby_names gives standbys (platform/replication-wait.ts), as Postgres's syncrep.c
// gives them: checked against the states pg_stat_replication shows, without a server.
import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultSyncNames, parseSyncNames, syncStatesProblem } from "./replication-wait";

test("the forms of synchronous_standby_names: FIRST n, ANY n, n (…), a plain list, quoted names, empty", () => {
  assert.deepEqual(parseSyncNames("FIRST 1 (pg2, pg3)"), { method: "first", num: 1, names: ["pg2", "pg3"] });
  assert.deepEqual(parseSyncNames("any 2 (a,b,c)"), { method: "any", num: 2, names: ["a", "b", "c"] });
  assert.deepEqual(parseSyncNames("2 (pg2, pg3)"), { method: "first", num: 2, names: ["pg2", "pg3"] });
  assert.deepEqual(parseSyncNames('pg3, "Pg 2"'), { method: "first", num: 1, names: ["pg3", "Pg 2"] });
  assert.equal(parseSyncNames("  "), null);
  assert.equal(defaultSyncNames(["pg2", "pg3", "pg4"]), "FIRST 1 (pg2, pg3, pg4)");
});

test("FIRST n: the first n listed of those up are sync, the other listed potential, the unlisted async", () => {
  const v = "FIRST 1 (pg2, pg3)";
  assert.equal(syncStatesProblem(v, { pg2: "sync", pg3: "potential" }), null);
  assert.equal(syncStatesProblem(v, { pg3: "sync" }), null, "pg2 down: pg3 takes over");
  assert.match(syncStatesProblem(v, { pg2: "potential", pg3: "sync" }) ?? "", /pg2: expected 1 sync and 0 potential/);
  assert.match(syncStatesProblem(v, { pg2: "async", pg3: "async" }) ?? "", /expected 1 sync/);
  assert.match(syncStatesProblem("pg2", { pg2: "sync", pg3: "potential" }) ?? "", /pg3 should be async/);
  assert.equal(syncStatesProblem("2 (pg3, pg2, pg4)", { pg2: "sync", pg3: "sync", pg4: "potential" }), null);
  assert.equal(syncStatesProblem("PG2, pg3", { pg2: "sync", pg3: "potential" }), null, "names match case-insensitively");
});

test("ANY n lists quorum standbys; * matches every standby, which are then told apart by count; empty means all async", () => {
  assert.equal(syncStatesProblem("ANY 1 (pg2, pg3)", { pg2: "quorum", pg3: "quorum" }), null);
  assert.match(syncStatesProblem("ANY 1 (pg2, pg3)", { pg2: "sync", pg3: "quorum" }) ?? "", /pg2 should be quorum/);
  assert.equal(syncStatesProblem("*", { pg2: "potential", pg3: "sync" }), null);
  assert.match(syncStatesProblem("*", { pg2: "sync", pg3: "sync" }) ?? "", /expected 1 sync and 1 potential/);
  assert.equal(syncStatesProblem("", { pg2: "async", pg3: "async" }), null);
});
