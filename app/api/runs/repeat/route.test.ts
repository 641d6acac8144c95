// POST /api/runs/repeat: the config queued N times in order on one target, recorded as a set; or a 400 naming what
// is wrong and nothing queued.
import assert from "node:assert/strict";
import { test } from "node:test";
import { appDatabases } from "@/lib/app-testing";
import { prisma } from "@/lib/db";
import { getRepeatGroup } from "@/lib/repeat/store";
import { getRun } from "@/lib/runs/store";
import { PATCH } from "./[id]/route";
import { POST } from "./route";

appDatabases("repeat_route");

const post = async (body: unknown) => {
  const res = await POST(
    new Request("http://127.0.0.1/api/runs/repeat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as { group?: string; url?: string; runs?: string[]; fields?: Record<string, string> } };
};
const queued = () => prisma().run.count({ where: { status: "queued" } });

test("queues the config N times in order, records the set, and answers its page", async () => {
  const config = { kind: "queue", writers: 1, readers: 1, durationSeconds: 2 };
  const r = await post({ config, targetId: "default", repeat: 3 });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const ids = r.body.runs ?? [];
  assert.equal(ids.length, 3);
  assert.equal(r.body.url, `/runs/repeat?group=${r.body.group}`);
  assert.match(r.body.group ?? "", /^rp_[0-9a-f]{12}$/);
  const stored = await getRepeatGroup(r.body.group!);
  assert.deepEqual(stored?.runIds, ids);
  assert.equal(stored?.repeats, 3);
  assert.equal(stored?.workload, "queue");
  const runs = await Promise.all(ids.map((id) => getRun(id)));
  for (const [i, run] of runs.entries()) {
    assert.ok(run);
    assert.deepEqual(run.config, runs[0]!.config, "one config");
    if (i > 0) assert.ok(run.createdAt > runs[i - 1]!.createdAt, `run ${i} is queued after run ${i - 1}`);
  }
  await prisma().run.updateMany({ where: { status: "queued" }, data: { status: "cancelled" } });
});

test("a named and tagged set keeps its labels, each run its place in the name; PATCH changes the set's", async () => {
  const r = await post({ config: { kind: "queue", writers: 1, readers: 1, durationSeconds: 2 }, repeat: 2, name: "noise check", tags: ["pg18"] });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const g = await getRepeatGroup(r.body.group!);
  assert.deepEqual(g?.labels, { name: "noise check", notes: null, tags: ["pg18"] });
  const runs = await Promise.all((r.body.runs ?? []).map((id) => getRun(id)));
  assert.deepEqual(
    runs.map((x) => [x?.name, x?.tags]),
    [
      ["noise check · run 1 of 2", ["pg18"]],
      ["noise check · run 2 of 2", ["pg18"]],
    ],
  );
  const patched = await PATCH(
    new Request("http://127.0.0.1/api/runs/repeat/x", { method: "PATCH", headers: { "content-type": "application/json" }, body: '{"notes":"quiet box"}' }),
    { params: Promise.resolve({ id: r.body.group! }) },
  );
  assert.deepEqual(await patched.json(), { id: r.body.group, name: "noise check", notes: "quiet box", tags: ["pg18"] });
  await prisma().run.updateMany({ where: { status: "queued" }, data: { status: "cancelled" } });
});

test("a repeat out of range or a config the form would refuse queues nothing", async () => {
  const before = await queued();
  for (const [repeat, message] of [
    [1, /^repeat at least 2 times: one run has no spread$/],
    [21, /^at most 20 repeats/],
    [2.5, /^repeat must be a whole number of runs from 2 to 20$/],
    ["six", /^repeat must be a whole number of runs from 2 to 20$/],
    [undefined, /^repeat must be a whole number of runs from 2 to 20$/],
  ] as const) {
    const r = await post({ config: { kind: "queue" }, repeat });
    assert.equal(r.status, 400, String(repeat));
    assert.match(r.body.fields?.repeat ?? "", message, String(repeat));
  }
  const bad = await post({ config: { kind: "queue", writers: 0 }, repeat: 2 });
  assert.equal(bad.status, 400);
  assert.match(bad.body.fields?.writers ?? "", /^Writers must be at least 1/);
  assert.equal(await queued(), before);
});
