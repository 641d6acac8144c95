// Who holds the xmin horizon back, from one pg_stat_activity reading: the oldest transaction outside the run, in the
// run's database only (another database's snapshots do not keep the run's tables' dead rows).
import assert from "node:assert/strict";
import { test } from "node:test";
import { countBackends } from "./reading";

const row = (pid: number, xactSec: number, o: Record<string, unknown> = {}) => ({
  pid,
  run: false,
  state: "idle in transaction",
  wt: "Client",
  we: "ClientRead",
  bt: "client backend",
  xmin_age: 100,
  xact_sec: xactSec,
  horizon_age: 100,
  app: `app ${pid}`,
  query: "SELECT 1",
  same_db: true,
  ...o,
});

test("the holder is the oldest transaction outside the run in the run's database, never another database's", () => {
  const b = countBackends([row(1, 90, { same_db: false }), row(2, 30), row(3, 60, { run: true }), row(4, 10)], new Set());
  assert.equal(b.holder?.pid, 2);
  // A reading from before the column existed (no same_db) still names the oldest.
  const old = countBackends([row(1, 90, { same_db: undefined }), row(2, 30)], new Set());
  assert.equal(old.holder?.pid, 1);
});
