// A launch racing the deletion of its saved target: the target is deleted between the launch's checks and its
// insert (deterministically, through the test hook), and every launch route answers 409 naming the target,
// never a 500 quoting Prisma's foreign-key message. Real control store and target, no mocks.
import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import pg from "pg";
import { POST as postCeiling } from "../../app/api/ceilings/route";
import { POST as postAb } from "../../app/api/runs/ab/route";
import { POST as postRun } from "../../app/api/runs/route";
import { prisma } from "../db";
import { testControlStore, testDatabase } from "../testing";
import { launchTestHooks } from "./launch";
import { addTarget, deleteTarget } from "./store";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;

before(async () => {
  ctl = await testControlStore("launchrace_ctl");
  target = await testDatabase("launchrace_tgt");
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
});
beforeEach(() => {
  launchTestHooks.afterCheck = undefined;
});
after(async () => {
  launchTestHooks.afterCheck = undefined;
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
});

let n = 0;
/** A saved target on the test database, and a hook that deletes it at the `nth` launch check. */
async function doomedTarget(nth = 1): Promise<{ id: string; name: string }> {
  const added = await addTarget({ name: `doomed ${++n}`, connectionString: target.url });
  assert.ok(added.ok, JSON.stringify(added));
  const { id, name } = added.target;
  let calls = 0;
  launchTestHooks.afterCheck = async () => {
    if (++calls === nth) await prisma().target.delete({ where: { id } });
  };
  return { id, name };
}

async function call(handler: (req: Request) => Promise<Response>, path: string, body: unknown) {
  const res = await handler(
    new Request(`http://127.0.0.1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as { error?: string; fields?: Record<string, string> } };
}

function assertConflict(r: Awaited<ReturnType<typeof call>>, t: { id: string; name: string }) {
  assert.equal(r.status, 409, JSON.stringify(r.body));
  assert.equal(r.body.error, "target deleted");
  assert.match(r.body.fields?.targetId ?? "", new RegExp(`^target "${t.name}" \\(${t.id}\\) was deleted while this was being launched; choose another target`));
  assert.doesNotMatch(JSON.stringify(r.body), /prisma|foreign key|P2003/i);
}

test("POST /api/runs: the target deleted after the checks answers 409 naming it, and queues nothing", async () => {
  const t = await doomedTarget();
  const r = await call(postRun, "/api/runs", { config: { kind: "queue", durationSeconds: 1 }, targetId: t.id });
  assertConflict(r, t);
  assert.equal(await prisma().run.count(), 0);
});

test("POST /api/ceilings: the same race answers 409 naming the target", async () => {
  const t = await doomedTarget();
  const r = await call(postCeiling, "/api/ceilings", { config: { kind: "queue" }, settings: { slo: "p99<50ms" }, targetId: t.id });
  assertConflict(r, t);
  assert.equal(await prisma().ceilingSearch.count(), 0);
});

test("POST /api/runs/ab: deleted before the baseline, or between the two runs, answers 409 and leaves no run to go", async () => {
  const first = await doomedTarget(1);
  assertConflict(await call(postAb, "/api/runs/ab", { config: { kind: "cache", durationSeconds: 1 }, targetId: first.id }), first);
  assert.equal(await prisma().run.count(), 0);

  const second = await doomedTarget(2);
  assertConflict(await call(postAb, "/api/runs/ab", { config: { kind: "cache", durationSeconds: 1 }, targetId: second.id }), second);
  // The baseline queued before the deletion is withdrawn (cancel requested), as for any half pair.
  const left = await prisma().run.findMany();
  assert.equal(left.length, 1);
  assert.ok(left[0].cancelRequested || left[0].status === "cancelled", JSON.stringify(left[0]));
});

test("the other order: a run inserted while its target is being deleted keeps its target, and the deletion is refused", async () => {
  const added = await addTarget({ name: `kept ${++n}`, connectionString: target.url });
  assert.ok(added.ok);
  const id = added.target.id;
  // A launch's insert, not yet committed when the deletion starts.
  const launch = new pg.Client({ connectionString: ctl.url });
  await launch.connect();
  try {
    await launch.query("BEGIN");
    await launch.query(`INSERT INTO run (id, workload, config, target_id, target_label) VALUES ('r_00000000race', 'queue', '{"kind":"queue"}', $1, 'kept')`, [
      id,
    ]);
    const deletion = deleteTarget(id);
    // The deletion waits on the insert's lock on the target row; then the launch commits.
    const end = Date.now() + 20_000;
    while (Date.now() < end) {
      const waiting = await prisma().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      if (waiting[0].n > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await launch.query("COMMIT");
    assert.equal(await deletion, "in-use");
  } finally {
    await launch.end();
  }
  const run = await prisma().run.findUniqueOrThrow({ where: { id: "r_00000000race" } });
  assert.equal(run.targetId, id, "the run still points at its own target, not at the default one");
});
