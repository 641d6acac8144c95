// POST /api/runs/ab: both variants queued with the same load on the same target, baseline first (the runner
// takes the oldest queued run first), or a 400 naming what is wrong and nothing queued.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { prisma } from "@/lib/db";
import { getRun } from "@/lib/runs/store";
import { testControlStore, testDatabase } from "@/lib/testing";
import { POST } from "./route";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
before(async () => {
  ctl = await testControlStore("ab_ctl");
  target = await testDatabase("ab_route_tgt");
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
});
after(async () => {
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
});

const post = async (body: unknown) => {
  const res = await POST(
    new Request("http://127.0.0.1/api/runs/ab", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as { baseline?: string; modded?: string; url?: string; fields?: Record<string, string> } };
};
const queued = () => prisma().run.count({ where: { status: "queued" } });

test("queues baseline then modded with the same config, and answers the page that follows them", async () => {
  const r = await post({ config: { kind: "jobqueue", producers: 3, consumers: 2, durationSeconds: 5, variant: "modded" }, targetId: "default" });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.url, `/runs/ab?baseline=${r.body.baseline}&modded=${r.body.modded}`);
  const [b, m] = await Promise.all([getRun(r.body.baseline!), getRun(r.body.modded!)]);
  assert.ok(b && m);
  assert.equal(b.status, "queued");
  assert.equal(m.status, "queued");
  assert.ok(b.createdAt < m.createdAt, "the baseline is queued first, so it runs first");
  assert.deepEqual({ ...(b.config as object), variant: "x" }, { ...(m.config as object), variant: "x" });
  assert.equal((b.config as { variant: string }).variant, "baseline");
  assert.equal((m.config as { variant: string }).variant, "modded");
  assert.equal(b.targetLabel, m.targetLabel);
  await prisma().run.updateMany({ where: { id: { in: [b.id, m.id] } }, data: { status: "cancelled" } });
});

test("a workload without variants, or a config the form would refuse, queues nothing", async () => {
  const before = await queued();
  const q = await post({ config: { kind: "queue" } });
  assert.equal(q.status, 400);
  assert.equal(q.body.fields?.kind, "the queue workload has no baseline and modded variants: launch it with POST /api/runs");
  const bad = await post({ config: { kind: "cache", vus: 0 } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.fields?.vus ?? "", /^Virtual users must be at least 1 for a closed loop/);
  assert.equal(await queued(), before);
});
