// A target that stops answering (its processes stopped with SIGSTOP, as a frozen VM or `kill -STOP` would):
// Cancel still ends the run within seconds, naming the unresponsive target; without a cancel the run fails on
// its own, naming it; a long statement on a target that does answer is not mistaken for one that stopped.
// A scratch server of its own, since it is frozen; every freeze is thawed in a finally.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { prisma } from "../lib/db";
import { readEnv } from "../lib/env";
import { createRun, requestCancel } from "../lib/runs/store";
import { registerRunner } from "../lib/status/runners";
import { freezeServer, startTestServer, testControlStore } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { CANCEL_DEADLINE_MS, RunCancelled, runWorkload } from "./engine";
import { startRunnerLoop } from "./main";
import { closeClient, LOOP_STATEMENT_TIMEOUT_MS, openClient } from "./core/pg/pgclient";

let server: Awaited<ReturnType<typeof startTestServer>>;
let url: string;
before(async () => {
  server = await startTestServer();
  server.keepAlive?.(false);
  url = server.url("postgres");
});
after(async () => {
  await server.stop();
});

const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, warmupSeconds: 0, durationSeconds: 60 });
const where = () => new RegExp(`the target at 127\\.0\\.0\\.1:${new URL(url).port}/postgres did not answer for \\d+ s`);

/** Leftover run schemas (a frozen target keeps its own; the sweep would drop them, the test does). */
async function dropRunSchemas() {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>("SELECT nspname AS n FROM pg_namespace WHERE nspname LIKE 'pgbb\\_%'");
    for (const r of rows) await c.query(`DROP SCHEMA "${r.n}" CASCADE`);
  } finally {
    await c.end();
  }
}

test("Cancel ends a run on a frozen target within seconds, naming the target", async (t) => {
  const controller = new AbortController();
  let freeze: ReturnType<typeof freezeServer> | undefined;
  let cancelledAt = 0;
  try {
    const run = runWorkload(config, url, {
      signal: controller.signal,
      telemetry: true,
      onPhase: (p) => {
        if (p !== "measuring") return;
        // A second of load, then the whole server stops; the cancel comes a moment later, as a user's would.
        setTimeout(() => {
          freeze = freezeServer(server.dir);
          setTimeout(() => {
            cancelledAt = Date.now();
            controller.abort();
          }, 500);
        }, 1000);
      },
    });
    await assert.rejects(run, (err: Error) => {
      assert.ok(err instanceof RunCancelled, `${err.name}: ${err.message}`);
      assert.match(err.message, where());
      assert.match(err.message, /the run's schema pgbb_cli_[0-9a-f]+ could not be dropped \(the target did not answer\)/);
      return true;
    });
    const took = Date.now() - cancelledAt;
    // Generous for a busy machine; the design's bound is CANCEL_DEADLINE_MS (about 4 s when the probe decides).
    assert.ok(took < CANCEL_DEADLINE_MS + 5000, `the cancelled run ended ${took} ms after the cancel`);
    t.diagnostic(`the cancelled run ended ${took} ms after the cancel`);
  } finally {
    freeze?.thaw();
  }
  await dropRunSchemas();
});

test("without a cancel, a run on a frozen target fails by itself, naming the target", async () => {
  let freeze: ReturnType<typeof freezeServer> | undefined;
  try {
    const run = runWorkload(config, url, {
      telemetry: false,
      // Shorter than the product's bounds (10 s of silence, 10 s for the probe), for a fast test.
      livenessForTest: { silenceMs: 1000, probeTimeoutMs: 1500 },
      onPhase: (p) => {
        if (p === "measuring") setTimeout(() => (freeze = freezeServer(server.dir)), 1000);
      },
    });
    await assert.rejects(run, (err: Error) => {
      assert.ok(!(err instanceof RunCancelled));
      assert.match(err.message, new RegExp(`^${where().source}`));
      return true;
    });
  } finally {
    freeze?.thaw();
  }
  await dropRunSchemas();
});

test("a statement that waits long on a target that answers is not taken for a frozen target", async () => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  let schema = "";
  try {
    const run = runWorkload({ ...config, durationSeconds: 5 }, url, {
      telemetry: false,
      // Probed after 0.5 s of silence; the probe gets the product's 10 s to answer (a busy machine is slow to connect).
      livenessForTest: { silenceMs: 500, probeTimeoutMs: 10_000 },
      onSchema: (s) => (schema = s),
      onPhase: (p) => {
        if (p !== "measuring") return;
        // Every loop blocks on the lock for 3 s: silent connections, a server that answers the probe.
        void c.query(`BEGIN; LOCK TABLE ${schema}.queue IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(3); COMMIT`);
      },
    });
    const summary = await run;
    assert.equal(summary.verification.ok, true, summary.verification.problems.join("; "));
  } finally {
    await c.end();
  }
});

test("the app's Cancel of a runner's run on a frozen target: cancelled within seconds, its error naming the target", async (t) => {
  const ctl = await testControlStore("unresponsive_ctl");
  const db = prisma(ctl.url);
  await registerRunner(db, "frozen-target-runner");
  const loop = startRunnerLoop(db, "frozen-target-runner", readEnv({ ...process.env, DATABASE_URL: ctl.url, TARGET_DATABASE_URL: url }));
  let freeze: ReturnType<typeof freezeServer> | undefined;
  try {
    const run = await createRun({ config, targetLabel: "frozen target" }, db);
    const waitFor = async (what: string, pred: (r: { status: string; phase: string | null }) => boolean, ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        const r = await db.run.findUniqueOrThrow({ where: { id: run.id } });
        if (pred(r)) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
      assert.fail(`the run did not ${what} within ${ms} ms`);
    };
    await waitFor("start measuring", (r) => r.phase === "measuring", 60_000);
    freeze = freezeServer(server.dir);
    const t0 = Date.now();
    assert.equal(await requestCancel(run.id, db), "requested");
    // The cancel flag is read every 0.5 s; then the engine's own bound. Generous for a busy machine.
    const r = (await waitFor("end", (x) => x.status !== "running", CANCEL_DEADLINE_MS + 10_000)) as { status: string; error: string | null };
    assert.equal(r.status, "cancelled");
    assert.match(r.error ?? "", new RegExp(`^cancelled on request; ${where().source}; the run's schema pgbb_${run.id} could not be dropped`));
    assert.ok(Date.now() - t0 < CANCEL_DEADLINE_MS + 10_000);
    t.diagnostic(`cancelled ${Date.now() - t0} ms after the request: ${r.error}`);
  } finally {
    freeze?.thaw();
    await loop.stop();
    await db.$disconnect();
    await ctl.drop();
  }
  await dropRunSchemas();
});

test("a loop's connection has a server-side statement_timeout; the set-up connection has none", async () => {
  const loop = await openClient(url, "writer 0", true, undefined, undefined, LOOP_STATEMENT_TIMEOUT_MS);
  const admin = await openClient(url, "admin", false);
  try {
    assert.equal((await loop.client.query("SHOW statement_timeout")).rows[0].statement_timeout, "5min");
    assert.equal((await admin.client.query("SHOW statement_timeout")).rows[0].statement_timeout, "0");
  } finally {
    await closeClient(loop.client);
    await closeClient(admin.client);
  }
});
