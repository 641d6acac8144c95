// POST /api/runs/ab: N pairs of both variants queued with the same load on the same target in ABBA order (the
// runner takes the oldest queued run first) and recorded as a group, or a 400 naming what is wrong and nothing queued.
import assert from "node:assert/strict";
import { test } from "node:test";
import { prisma } from "@/lib/db";
import { getAbGroup } from "@/lib/compare/ab-store";
import { getRun } from "@/lib/runs/store";
import { POST } from "./route";
import { appDatabases } from "@/lib/app-testing";

appDatabases("ab_route");

const post = async (body: unknown) => {
  const res = await POST(
    new Request("http://127.0.0.1/api/runs/ab", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as { baseline?: string; modded?: string; url?: string; fields?: Record<string, string> } };
};
const queued = () => prisma().run.count({ where: { status: "queued" } });

type Slot = { pair: number; variant: string; runId: string };
test("queues N pairs in balanced ABBA order with the same config, records the group, and answers the page that follows it", async () => {
  const r = await post({ config: { kind: "jobqueue", producers: 3, consumers: 2, durationSeconds: 5, variant: "modded" }, targetId: "default", pairs: 2 });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const slots = (r.body as { runs?: Slot[] }).runs ?? [];
  assert.deepEqual(
    slots.map((s) => `${s.pair}${s.variant[0]}`),
    ["1b", "1m", "2m", "2b"],
  );
  const group = (r.body as { group?: string }).group!;
  assert.equal(r.body.url, `/runs/ab?group=${group}`);
  // The group is recorded with its order, so the page shows the runs together.
  const stored = await getAbGroup(group);
  assert.deepEqual(stored?.slots, slots);
  assert.equal(stored?.pairs, 2);
  assert.equal((stored?.config as { variant?: string } | undefined)?.variant, undefined);
  const runs = await Promise.all(slots.map((s) => getRun(s.runId)));
  for (const [i, run] of runs.entries()) {
    assert.ok(run);
    assert.equal(run.status, "queued");
    assert.equal((run.config as { variant: string }).variant, slots[i].variant);
    assert.deepEqual({ ...(run.config as object), variant: "x" }, { ...(runs[0]!.config as object), variant: "x" });
    assert.equal(run.targetLabel, runs[0]!.targetLabel);
    // The runner takes the oldest queued run first: the queue order is the ABBA order.
    if (i > 0) assert.ok(run.createdAt > runs[i - 1]!.createdAt, `run ${i} is queued after run ${i - 1}`);
  }
  // Named and tagged: the group keeps the labels; each run the tags and notes, and the name with its place.
  const named = await post({ config: { kind: "cache", durationSeconds: 1 }, pairs: 1, name: "Cache WAL test", tags: "pg18 ab", notes: "n" });
  assert.equal(named.status, 201, JSON.stringify(named.body));
  const g = await getAbGroup((named.body as { group: string }).group);
  assert.deepEqual(g?.labels, { name: "Cache WAL test", notes: "n", tags: ["pg18", "ab"] });
  const members = await Promise.all((g?.slots ?? []).map((s) => getRun(s.runId)));
  assert.deepEqual(
    members.map((m) => [m?.name, m?.tags, m?.notes]),
    [
      ["Cache WAL test · baseline, pair 1", ["pg18", "ab"], "n"],
      ["Cache WAL test · modded, pair 1", ["pg18", "ab"], "n"],
    ],
  );
  const badTag = await post({ config: { kind: "cache", durationSeconds: 1 }, pairs: 1, tags: ["no way"] });
  assert.equal(badTag.status, 400);
  assert.match(badTag.body.fields?.tags ?? "", /^tag "no way" has a character other than/);
  // Without `pairs`: 3 pairs.
  const d = await post({ config: { kind: "cache", durationSeconds: 1 }, targetId: "default" });
  assert.equal(((d.body as { runs?: Slot[] }).runs ?? []).map((s) => s.variant[0]).join(""), "bmmbbm");
  await prisma().run.updateMany({ where: { status: "queued" }, data: { status: "cancelled" } });
});

test("a workload without variants, or a config the form would refuse, queues nothing", async () => {
  const before = await queued();
  const q = await post({ config: { kind: "queue" } });
  assert.equal(q.status, 400);
  assert.equal(q.body.fields?.kind, "the queue workload has no baseline and modded variants: launch it with POST /api/runs");
  const bad = await post({ config: { kind: "cache", vus: 0 } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.fields?.vus ?? "", /^Virtual users must be at least 1 for a closed loop/);
  const pairs = await post({ config: { kind: "cache" }, pairs: 0 });
  assert.equal(pairs.status, 400);
  assert.match(pairs.body.fields?.pairs ?? "", /^pairs must be at least 1/);
  assert.equal(await queued(), before);
});

test("a hostile or malformed body is a 400 naming the field, never a 500, and queues nothing", async () => {
  const before = await queued();
  const kindMessage = /^kind must be "pubsub", "queue", "cache", .* or "pg-boss"$/;
  const configMessage = /^config must be an object: an object such as \{"kind":"\w+"\}$/;
  const cases: [unknown, string, RegExp][] = [
    [{ config: { kind: { toString: 1 } } }, "kind", kindMessage],
    [{ config: { kind: { valueOf: 1, toString: 1 } } }, "kind", kindMessage],
    [{ config: { kind: ["cache"] } }, "kind", kindMessage],
    [{ config: { kind: null } }, "kind", kindMessage],
    [{ config: { kind: 7 } }, "kind", kindMessage],
    [{ config: { kind: { a: { b: { c: { toString: 1 } } } } } }, "kind", kindMessage],
    [{ config: {} }, "kind", kindMessage],
    [{ config: { toString: 1 } }, "kind", kindMessage],
    [{ config: "cache" }, "config", configMessage],
    [{ config: ["cache"] }, "config", configMessage],
    [{ config: null }, "config", configMessage],
    [{}, "config", /^config is required: an object such as/],
    [{ config: { kind: "cache" }, pairs: { toString: 1 } }, "pairs", /^pairs must be/],
    [{ config: { kind: "cache" }, targetId: { toString: 1 } }, "targetId", /^targetId /],
    [{ config: { kind: "cache", vus: { valueOf: 1 } } }, "vus", /^Virtual users must be a whole number/],
  ];
  for (const [body, field, message] of cases) {
    const r = await post(body);
    assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
    assert.match(r.body.fields?.[field] ?? "", message, `${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
  }
  assert.equal(await queued(), before);
});
