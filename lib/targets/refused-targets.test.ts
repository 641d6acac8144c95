// Targets no run can use, on a real Postgres: the app's own control store database (however its URL is
// written) is refused on saving, on launch (API, the default target, a target saved before) and by the engine
// (the runner and the CLI); a read-only database is saved with a warning naming default_transaction_read_only,
// refused at launch, and a run on it fails naming the setting instead of a missing CREATE privilege.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { POST as postRun } from "../../app/api/runs/route";
import { POST as postTarget } from "../../app/api/targets/route";
import { prisma } from "../db";
import { testControlStore, testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { main as bench } from "../../runner/cli";
import { runWorkload } from "../../runner/engine";
import { CONTROL_STORE_TARGET, HOLDS_CONTROL_STORE, identityOf } from "./connect";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
let readOnly: Awaited<ReturnType<typeof testDatabase>>;

/** The same database by another spelling of the same server: localhost for 127.0.0.1, an explicit option. */
const respelled = (url: string) => {
  const u = new URL(url);
  u.hostname = "localhost";
  u.searchParams.set("application_name", "x");
  return u.toString();
};

before(async () => {
  ctl = await testControlStore("refused_ctl");
  target = await testDatabase("refused_tgt");
  readOnly = await testDatabase("refused_ro");
  const c = new pg.Client({ connectionString: readOnly.url });
  await c.connect();
  await c.query(`ALTER DATABASE ${new URL(readOnly.url).pathname.slice(1)} SET default_transaction_read_only = on`);
  await c.end();
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
});
after(async () => {
  process.env.TARGET_DATABASE_URL = target.url;
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
  await readOnly.drop();
});

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
async function saveTarget(connectionString: string, name?: string) {
  const res = await postTarget(new Request("http://127.0.0.1/api/targets", json({ name, connectionString })));
  return { status: res.status, body: await res.json() };
}
async function launch(targetId?: string) {
  const config = { kind: "queue", writers: 1, readers: 1, durationSeconds: 1, warmupSeconds: 0 };
  const res = await postRun(new Request("http://127.0.0.1/api/runs", json({ config, ...(targetId ? { targetId } : {}) })));
  return { status: res.status, body: await res.json() };
}
const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 1, warmupSeconds: 0 });

describe("the control store as a target", () => {
  test("saving it is refused, however the URL is written; another database of the same server is accepted", async () => {
    for (const url of [ctl.url, respelled(ctl.url)]) {
      const r = await saveTarget(url);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.fields.connectionString, `connectionString: ${CONTROL_STORE_TARGET}`);
    }
    assert.equal(await prisma().target.count(), 0, "nothing saved");
    const ok = await saveTarget(respelled(target.url), "same server, other database");
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.warnings, []);
    await prisma().target.deleteMany({});
  });

  test("launching on it is refused: as the default target, or as a target saved before this check", async () => {
    process.env.TARGET_DATABASE_URL = respelled(ctl.url);
    try {
      const r = await launch();
      assert.equal(r.status, 400);
      assert.equal(r.body.error, "target is the control store");
      assert.equal(r.body.fields.targetId, `embedded default: ${CONTROL_STORE_TARGET}`);
    } finally {
      process.env.TARGET_DATABASE_URL = target.url;
    }
    const old = await prisma().target.create({ data: { id: "t_oldctl0001", name: "saved long ago", connectionString: ctl.url } });
    const r = await launch(old.id);
    assert.equal(r.status, 400);
    assert.equal(r.body.fields.targetId, `saved long ago: ${CONTROL_STORE_TARGET}`);
    assert.equal(await prisma().run.count(), 0, "no run queued");
    await prisma().target.deleteMany({});
  });

  test("the engine refuses it (the runner's and the CLI's runs), and any database holding a control store", async () => {
    const identity = await identityOf(ctl.url);
    assert.ok(identity?.systemIdentifier, "pg_control_system() is readable");
    await assert.rejects(runWorkload(config, respelled(ctl.url), { controlStore: identity, telemetry: false }), { message: CONTROL_STORE_TARGET });
    // A command that does not know the app's control store (no DATABASE_URL) still recognises one.
    await assert.rejects(runWorkload(config, ctl.url, { telemetry: false }), { message: HOLDS_CONTROL_STORE });
    const c = new pg.Client({ connectionString: ctl.url });
    await c.connect();
    const left = await c.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgbb_%'");
    await c.end();
    assert.equal(left.rowCount, 0, "nothing was written into the control store");
  });

  test("`npm run bench -- … --target` refuses it, naming why", async () => {
    // DATABASE_URL is the app's control store here (lib/testing.ts testControlStore), as under `npm start`.
    const out: string[] = [];
    const code = await bench(["queue", "-duration", "1s", "--target", respelled(ctl.url)], { out: (l) => out.push(l), err: (l) => out.push(l) });
    assert.equal(code, 1);
    assert.ok(out.includes(`bench: ${CONTROL_STORE_TARGET}`), out.join("\n"));
  });
});

describe("a read-only target", () => {
  test("is saved with a warning naming the setting and how to turn it off", async () => {
    const r = await saveTarget(readOnly.url, "read-only copy");
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.warnings.length, 1);
    assert.match(r.body.warnings[0], /^saved, but no run can use it yet: the target is read-only: default_transaction_read_only is on for this database/);
    assert.match(r.body.warnings[0], /ALTER DATABASE "refused_ro_[0-9a-f]+" SET default_transaction_read_only = off/);
    const l = await launch(r.body.target.id);
    assert.equal(l.status, 400);
    assert.equal(l.body.error, "target is read-only");
    assert.match(l.body.fields.targetId, /^read-only copy: the target is read-only: default_transaction_read_only is on/);
  });

  test("a run on it fails naming the read-only setting, not a missing CREATE privilege", async () => {
    const err = await runWorkload(config, readOnly.url, { telemetry: false }).then(
      () => null,
      (e: Error) => e,
    );
    assert.ok(err);
    assert.match(err.message, /default_transaction_read_only is on for this database; turn it off with ALTER DATABASE/);
    assert.doesNotMatch(err.message, /needs CREATE/);
  });
});
