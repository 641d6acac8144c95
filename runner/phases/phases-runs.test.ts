// Each phase kind carried out for real in a run on the embedded Postgres, through the engine: the phase on the run's
// timeline when it was asked for, what it did to the target (seen in pg_stat_activity while it lasted), its report in
// the summary (the consumers' rate and latency before, during and after it, dead tuples and sizes, the recovery), and
// verification still accounting for every message or job across it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { parseConfig, type WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import type { PhaseReport } from "../../lib/phases/report";
import { phaseReportLines } from "../../lib/phases/words";
import { testDatabase } from "../../lib/testing";
import { runWorkload, verificationError } from "../harness";

let db: Awaited<ReturnType<typeof testDatabase>>;
before(async () => {
  db = await testDatabase("phases");
});
after(() => db.drop());

const configOf = (input: WorkloadInput): WorkloadConfig => {
  const r = parseConfig(input);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
  return r.config;
};

/** The phase sessions pg_stat_activity shows, read every 200 ms while the run lasts. */
async function watchPhaseSessions<T>(during: () => Promise<T>): Promise<{ result: T; seen: { app: string; state: string; xmin: boolean }[] }> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const seen: { app: string; state: string; xmin: boolean }[] = [];
  let done = false;
  const watching = (async () => {
    while (!done) {
      const { rows } = await c.query<{ app: string; state: string; xmin: boolean }>(
        "SELECT application_name AS app, state, backend_xmin IS NOT NULL AS xmin FROM pg_stat_activity WHERE application_name LIKE 'pgbb phase %' AND datname = current_database()",
      );
      seen.push(...rows);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  try {
    return { result: await during(), seen };
  } finally {
    done = true;
    await watching;
    await c.end();
  }
}

/** The one phase's report, its timing as asked (the clock's, within 2 s of slack under a loaded machine: the size reading before it begins waits on nothing but the CPU). */
function reportOf(reports: PhaseReport[] | undefined, startSec: number, lengthSec: number): PhaseReport {
  assert.equal(reports?.length, 1, JSON.stringify(reports));
  const r = reports![0];
  const lines = phaseReportLines(r).join("\n");
  assert.equal(r.problem, undefined, lines);
  assert.ok(r.startedSec !== null && r.startedSec >= startSec && r.startedSec < startSec + 2, lines);
  assert.ok(r.endedSec !== null && r.endedSec >= startSec + lengthSec && r.endedSec < startSec + lengthSec + 3, lines);
  assert.ok(r.before && r.during && r.after, lines);
  return r;
}

const QUEUE = { kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 300, warmupSeconds: 2, durationSeconds: 15 } as const;

test("hold-xmin: a transaction of the phase's own sits idle in transaction with a snapshot for its length; dead tuples grow; the holder recorded is the phase", async () => {
  const config = configOf({ ...QUEUE, durationSeconds: 22, phases: "hold-xmin@5s+11s" });
  const { result: s, seen } = await watchPhaseSessions(() => runWorkload(config, db.url, { drainSeconds: 5 }));
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const r = reportOf(s.phases, 5, 11);
  const lines = phaseReportLines(r).join("\n");
  assert.match(r.did, /held transaction \d+ open \(REPEATABLE READ, idle in transaction\) on pid \d+/);
  assert.ok(
    seen.some((x) => x.app === "pgbb phase hold-xmin@5s+11s" && x.state === "idle in transaction" && x.xmin),
    JSON.stringify(seen.slice(0, 5)),
  );
  // The readers delete what they read: behind the held snapshot nothing they leave can be removed.
  assert.ok(r.deadTuples && r.deadTuples.end > r.deadTuples.start, lines);
  assert.ok(r.tableBytes && r.tableBytes.end >= r.tableBytes.start, lines);
  assert.equal(s.telemetry?.window?.xminHolder?.applicationName, "pgbb phase hold-xmin@5s+11s", "the horizon's holder is the phase's session");
  // The verdict finds the held snapshot and names the phase as its holder (the lead only when it slowed the run most).
  const v = s.telemetry!.verdict;
  assert.ok(v.category === "held-snapshot" || v.also.includes("held-snapshot"), `${v.category}; also ${v.also.join()}: ${v.statement}`);
  const found = v.findings.find((f) => f.category === "held-snapshot")!;
  assert.ok(
    found.evidence.some((e) => /held by the run's own phase hold-xmin@5s\+11s/.test(e.what)),
    JSON.stringify(found.evidence),
  );
  assert.ok(r.recoverySec !== null && r.recoverySec <= r.after!.seconds, lines);
});

test("long-reader: one statement reads the run's largest table and holds its snapshot, active, for the phase's length", async () => {
  // Half the other runs' rate, and 8 s after the phase: the backlog the held snapshot builds up must drain within the
  // run on a machine other work keeps busy too (at 300 msg/s its readers, near their limit there, were not back within
  // the 6 s after a 5 s phase).
  const config = configOf({ ...QUEUE, throttleWritesPerSec: 150, phases: "long-reader@5s+4s" });
  const { result: s, seen } = await watchPhaseSessions(() => runWorkload(config, db.url, { drainSeconds: 5 }));
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const r = reportOf(s.phases, 5, 4);
  assert.match(r.did, /^read pgbb_\w+\.queue in one statement held 4 s on pid \d+$/);
  assert.ok(
    seen.some((x) => x.app === "pgbb phase long-reader@5s+4s" && x.state === "active" && x.xmin),
    JSON.stringify(seen.slice(0, 5)),
  );
  assert.ok(r.deadTuples && r.deadTuples.end > r.deadTuples.start, phaseReportLines(r).join("\n"));
  assert.ok(r.recoverySec !== null, phaseReportLines(r).join("\n"));
});

test("pause-workers: the readers stop for the phase while the writers go on, the backlog grows, and the run catches up after it", async () => {
  const config = configOf({ ...QUEUE, phases: "pause-workers@5s+4s" });
  const s = await runWorkload(config, db.url, { drainSeconds: 10 });
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const r = reportOf(s.phases, 5, 4);
  const lines = phaseReportLines(r).join("\n");
  // A second across either edge is in neither span: what is left of the pause's seconds read nothing, or nearly.
  assert.ok(r.during!.perSecond < 0.1 * r.before!.perSecond, lines);
  assert.ok((r.during!.backlogMax ?? 0) > 2 * (r.before!.backlogMax ?? 0) + 300, lines);
  assert.ok(r.after!.perSecond > r.before!.perSecond, `the readers caught up faster than the rate\n${lines}`);
  assert.ok(r.recoverySec !== null && r.recoverySec > 0, lines);
  assert.match(
    lines,
    /recovered [\d.]+ s after it ended \(back at ≥ [\d,]+ msg\/s over 3 s in a row \(90% of the [\d,]+ (asked; [\d,]+ )?before it\), the backlog at most [\d,]+ in each\)/,
  );
  // The window's conclusions own the pause: the verdict says the run's own phase paused the consumers, and how long.
  assert.match(
    s.telemetry!.verdict.statement,
    /the run's own phase pause-workers@5s\+4s paused the consumers for 4 s of the 15 s window, and these figures include it/,
  );
});

test("pause-workers on a queue library: pg-boss's workers stop working its queue and start again; every job still runs exactly once", async () => {
  const config = configOf({
    kind: "pg-boss",
    batchSize: 50,
    burstWhenBatchFull: true,
    notify: true,
    rate: 200,
    enqueuers: 2,
    warmupSeconds: 1,
    durationSeconds: 16,
    phases: "pause-workers@5s+4s",
  });
  const s = await runWorkload(config, db.url, { drainSeconds: 15 });
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const r = reportOf(s.phases, 5, 4);
  const lines = phaseReportLines(r).join("\n");
  assert.ok(r.during!.perSecond < 0.1 * r.before!.perSecond, lines);
  assert.ok(r.recoverySec !== null, lines);
  // pg-boss's own pool (named for the run) counts with the 2 enqueuers as the run's connections, not as other sessions.
  const w = s.telemetry!.window!;
  assert.ok(w.runConnections > 2, `the run's connections: ${w.runConnections}`);
});
