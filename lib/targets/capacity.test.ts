// The connection budget names the limit that binds: max_connections, the role's CONNECTION LIMIT or the
// database's. The role case runs on a real embedded Postgres with a real limited role, through the launch API
// and the runner's preflight, as a user would hit it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { POST } from "../../app/api/runs/route";
import { runWorkload } from "../../runner/engine";
import { bindingLimit, budgetProblem, type ConnectionBudget } from "./capacity";
import { prisma } from "../db";
import { targetInfo } from "./store";
import { testControlStore, testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";

const queue = (writers: number, readers = 1) => WorkloadConfig.parse({ kind: "queue", writers, readers, durationSeconds: 1, warmupSeconds: 0 });

test("the smallest limit binds, counted 'ever' (launch) or 'now' (about to connect)", () => {
  const b: ConnectionBudget = {
    maxConnections: 100,
    reservedConnections: 3,
    inUse: 10,
    role: { name: "app", limit: 30, inUse: 4 },
    database: { name: "bench", limit: 50, inUse: 40 },
  };
  assert.deepEqual([bindingLimit(b, "ever").limit, bindingLimit(b, "ever").allows], ["role", 30]);
  assert.deepEqual([bindingLimit(b, "now").limit, bindingLimit(b, "now").allows], ["database", 10]);
  assert.equal(budgetProblem(queue(27), b, "ever"), null, "28 clients + 2 = 30 connections fit the role's 30");
  const over = budgetProblem(queue(28), b, "ever");
  assert.equal(over?.limit, "role");
  assert.match(over!.message, /needs 31 connections .* at most 30: role "app" has CONNECTION LIMIT 30\. .*ALTER ROLE "app" CONNECTION LIMIT/);
  const now = budgetProblem(queue(10), b, "now");
  assert.equal(now?.limit, "database");
  assert.match(now!.message, /only 10 are free: database "bench" has CONNECTION LIMIT 50 − 40 connections to it in use/);
  // Without role or database limits, max_connections binds, minus what is in use when counted "now".
  const plain: ConnectionBudget = { maxConnections: 100, reservedConnections: 3, inUse: 10 };
  assert.equal(bindingLimit(plain, "ever").allows, 97);
  assert.match(budgetProblem(queue(88), plain, "now")!.message, /only 87 are free: max_connections 100 − 3 reserved − 10 in use\. .*raise max_connections/);
});

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
const role = `pgbb_cap_${process.pid}`;
let roleUrl: string;

async function asAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

before(async () => {
  ctl = await testControlStore("capacity_ctl");
  target = await testDatabase("capacity_tgt");
  await asAdmin((c) => c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'cap-pw' CONNECTION LIMIT 30`));
  const u = new URL(target.url);
  u.username = role;
  u.password = "cap-pw";
  roleUrl = u.toString();
  process.env.TARGET_DATABASE_URL = roleUrl;
  process.env.TARGET_IS_EMBEDDED = "1";
});
after(async () => {
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
  const admin = new URL(target.url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP ROLE IF EXISTS ${role}`);
  await c.end();
});

async function launch(config: WorkloadConfig) {
  const res = await POST(
    new Request("http://127.0.0.1/api/runs", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ config }) }),
  );
  return { status: res.status, body: (await res.json()) as { fields?: Record<string, string> } };
}

test("a role with CONNECTION LIMIT 30: a run needing 31 is refused at launch naming the role's limit; 30 is accepted", async () => {
  const info = await targetInfo(roleUrl);
  assert.deepEqual(info.role, { name: role, limit: 30, inUse: 0 });
  assert.equal(info.usable, 30);
  assert.equal(info.binding.limit, "role");

  const refused = await launch(queue(28));
  assert.equal(refused.status, 400);
  assert.match(refused.body.fields?.connections ?? "", new RegExp(`needs 31 connections .* at most 30: role "${role}" has CONNECTION LIMIT 30`));
  assert.doesNotMatch(refused.body.fields?.connections ?? "", /raise max_connections/);

  const accepted = await launch(queue(27));
  assert.equal(accepted.status, 201, JSON.stringify(accepted.body));
});

test("the runner's preflight counts the role's connections in use and names the role", async () => {
  // 5 connections of the role stay open: 30 − 5 = 25 are free for a run needing 26.
  const held = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const c = new pg.Client({ connectionString: roleUrl });
      await c.connect();
      return c;
    }),
  );
  try {
    await assert.rejects(runWorkload(queue(23), roleUrl), (e: Error) => {
      assert.match(e.message, new RegExp(`needs 26 connections .* only 25 are free: role "${role}" has CONNECTION LIMIT 30 − 5 of its connections in use`));
      return true;
    });
  } finally {
    await Promise.all(held.map((c) => c.end()));
  }
});

test("a database CONNECTION LIMIT binds when it is the smallest", async () => {
  await asAdmin((c) => c.query(`ALTER DATABASE ${new URL(target.url).pathname.slice(1)} CONNECTION LIMIT 12`));
  try {
    const info = await targetInfo(roleUrl);
    assert.equal(info.binding.limit, "database");
    assert.equal(info.usable, 12);
    const refused = await launch(queue(11));
    assert.match(refused.body.fields?.connections ?? "", /needs 14 connections .* at most 12: database "[^"]+" has CONNECTION LIMIT 12\. .*ALTER DATABASE/);
  } finally {
    await asAdmin((c) => c.query(`ALTER DATABASE ${new URL(target.url).pathname.slice(1)} CONNECTION LIMIT -1`));
  }
});
