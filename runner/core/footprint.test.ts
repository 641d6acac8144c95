// Runs leave the target as they found it (runner/core/footprint.ts), on a real Postgres: the search workload's
// pg_trgm option creates the extension on a database without it and the run drops it after, whether it
// completed or failed; an extension that was there before stays; one another run still uses stays until that
// run ends; one a user's object came to depend on stays (never CASCADE). pg_cron is not in the embedded
// server's extension directory, so its unschedule-at-tear-down is exercised through the same tear-down hook.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../engine";
import { EXTENSION_MARK, RunFootprint } from "./footprint";

const dbs: { url: string; drop: () => Promise<void> }[] = [];
const clients: pg.Client[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await Promise.all(dbs.map((d) => d.drop()));
});

/** A fresh database and a client on it. */
async function fresh(label: string) {
  const db = await testDatabase(label);
  dbs.push(db);
  const c = await connect(db.url);
  return { url: db.url, c };
}
async function connect(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  clients.push(c);
  return c;
}
const installed = async (c: pg.Client, name = "pg_trgm") => (await c.query("SELECT 1 FROM pg_extension WHERE extname = $1", [name])).rowCount === 1;

const trigram = (over: Partial<WorkloadInput> = {}) =>
  WorkloadConfig.parse({
    kind: "search",
    variant: "baseline",
    trigram: true,
    vus: 2,
    thinkMs: 0,
    pool: 2,
    articles: 300,
    warmupSeconds: 0,
    durationSeconds: 1,
    ...over,
  } as WorkloadInput);

describe("a search --trigram run", () => {
  test("on a database without pg_trgm creates it for the run and drops it after", async () => {
    const { url, c } = await fresh("fp_fresh");
    assert.equal(await installed(c), false);
    const lines: string[] = [];
    const s = await runWorkload(trigram(), url, { telemetry: false, log: (l) => lines.push(l) });
    assert.equal(s.verification.ok, true, s.verification.problems.join("; "));
    assert.ok(
      s.notes?.some((n) => n.includes("pg_trgm GIN indexes")),
      "the run did use the trigram indexes",
    );
    assert.equal(await installed(c), false, `pg_trgm left behind; log:\n${lines.join("\n")}`);
  });

  test("on a database that had pg_trgm leaves it, with its own comment", async () => {
    const { url, c } = await fresh("fp_before");
    await c.query("CREATE EXTENSION pg_trgm");
    const comment = async () => (await c.query("SELECT obj_description(oid, 'pg_extension') AS d FROM pg_extension WHERE extname = 'pg_trgm'")).rows[0].d;
    const was = await comment();
    await runWorkload(trigram(), url, { telemetry: false });
    assert.equal(await installed(c), true);
    assert.equal(await comment(), was);
  });

  test("that fails mid-run still drops the pg_trgm it created", async () => {
    const { url, c } = await fresh("fp_fail");
    const err = await runWorkload(trigram({ durationSeconds: 60 }), url, {
      telemetry: false,
      // The pool's connections are cut as the measured window starts: the run fails, its admin connection lives.
      onPhase: (p) => {
        if (p === "measuring")
          void c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'pgbb pool%' AND datname = current_database()");
      },
    }).then(
      () => null,
      (e: Error) => e,
    );
    assert.ok(err, "the run failed");
    assert.match(err.message, /lost its connection|connection .* was lost/);
    assert.equal(await installed(c), false, "pg_trgm left behind by a failed run");
    assert.equal((await c.query("SELECT 1 FROM pg_namespace WHERE nspname LIKE 'pgbb_%'")).rowCount, 0, "its schema was dropped");
  });
});

describe("the footprint of runs sharing one database", () => {
  test("an extension another run still uses stays until the last one ends, and is dropped then", async () => {
    const { url, c } = await fresh("fp_shared");
    const [a, b] = [await connect(url), await connect(url)];
    const fa = new RunFootprint();
    const fb = new RunFootprint();
    assert.deepEqual(await fa.holdExtension(a, "pg_trgm"), { ok: true, created: true });
    assert.deepEqual(await fb.holdExtension(b, "pg_trgm"), { ok: true, created: false });
    await fa.releaseExtensions(a);
    assert.equal(await installed(c), true, "run B still uses it");
    await fb.releaseExtensions(b);
    assert.equal(await installed(c), false, "the last run dropped what a run had created");
  });

  test("a run's extension left by a killed run is dropped by the next run that uses it", async () => {
    const { url, c } = await fresh("fp_left");
    const killed = await connect(url);
    await new RunFootprint().holdExtension(killed, "pg_trgm");
    await killed.end(); // never released: the process died
    const next = await connect(url);
    const f = new RunFootprint();
    assert.deepEqual(await f.holdExtension(next, "pg_trgm"), { ok: true, created: false });
    await f.releaseExtensions(next);
    assert.equal(await installed(c), false);
  });

  test("an extension a user's object came to depend on stays, and the object too (no CASCADE)", async () => {
    const { url, c } = await fresh("fp_user");
    const a = await connect(url);
    const f = new RunFootprint();
    await f.holdExtension(a, "pg_trgm");
    const mark = (await c.query("SELECT obj_description(oid, 'pg_extension') AS d FROM pg_extension WHERE extname = 'pg_trgm'")).rows[0].d;
    assert.ok(String(mark).startsWith(EXTENSION_MARK), `marked: ${mark}`);
    await c.query("CREATE TABLE public.users_own (t text)");
    await c.query("CREATE INDEX users_own_trgm ON public.users_own USING gin (t gin_trgm_ops)");
    await f.releaseExtensions(a);
    assert.equal(await installed(c), true);
    assert.equal((await c.query("SELECT 1 FROM pg_class WHERE relname = 'users_own_trgm'")).rowCount, 1);
  });

  test("what a run registered for tear-down runs even when the run fails (pg_cron's unschedule goes this way)", async () => {
    const { url, c } = await fresh("fp_undo");
    await c.query("CREATE TABLE public.job (name text)");
    await c.query("INSERT INTO public.job VALUES ('pgbb-cache-expiry-x')");
    const a = await connect(url);
    const f = new RunFootprint();
    f.atTeardown("fail on purpose", async () => {
      throw new Error("boom");
    });
    f.atTeardown("unschedule", (admin) => admin.query("DELETE FROM public.job WHERE name = 'pgbb-cache-expiry-x'"));
    await f.undoRegistered(a);
    assert.equal((await c.query("SELECT 1 FROM public.job")).rowCount, 0, "a failing step does not stop the others");
  });
});
