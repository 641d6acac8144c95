// POST /api/runs/ladder: the config queued once per synchronous_commit level and round, in the balanced order
// (round 1 up the levels, round 2 down), recorded as a group; or a 400 naming what is wrong and nothing queued.
import assert from "node:assert/strict";
import { test } from "node:test";
import { appDatabases } from "@/lib/app-testing";
import { prisma } from "@/lib/db";
import { getLadderGroup } from "@/lib/ladder/store";
import { getRun } from "@/lib/runs/store";
import { POST } from "./route";

appDatabases("ladder_route");

const post = async (body: unknown) => {
  const res = await POST(
    new Request("http://127.0.0.1/api/runs/ladder", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
  return {
    status: res.status,
    body: (await res.json()) as { group?: string; url?: string; runs?: { round: number; level: string; runId: string }[]; fields?: Record<string, string> },
  };
};
const queued = () => prisma().run.count({ where: { status: "queued" } });

test("queues each level per round in the balanced order with one config, records the group, and answers its page", async () => {
  const r = await post({ config: { kind: "queue", writers: 1, readers: 1, durationSeconds: 2 }, targetId: "default", levels: ["on", "off"], repeats: 2 });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const slots = r.body.runs ?? [];
  assert.deepEqual(
    slots.map((s) => `${s.round}:${s.level}`),
    ["1:off", "1:on", "2:on", "2:off"],
  );
  assert.equal(r.body.url, `/runs/ladder?group=${r.body.group}`);
  const stored = await getLadderGroup(r.body.group!);
  assert.deepEqual(stored?.slots, slots);
  assert.deepEqual(stored?.levels, ["off", "on"]);
  assert.equal(stored?.repeats, 2);
  assert.ok(stored);
  assert.equal((stored.config as { synchronousCommit?: string }).synchronousCommit, undefined);
  const runs = await Promise.all(slots.map((s) => getRun(s.runId)));
  for (const [i, run] of runs.entries()) {
    assert.ok(run);
    assert.equal((run.config as { synchronousCommit?: string }).synchronousCommit, slots[i].level);
    assert.deepEqual({ ...(run.config as object), synchronousCommit: "x" }, { ...(runs[0]!.config as object), synchronousCommit: "x" });
    if (i > 0) assert.ok(run.createdAt > runs[i - 1]!.createdAt, `run ${i} is queued after run ${i - 1}`);
  }
  // Levels as the CLI writes them, without repeats: 3 rounds.
  const d = await post({ config: { kind: "queue", durationSeconds: 1 }, levels: "local,remote_apply" });
  assert.equal((d.body.runs ?? []).map((s) => s.level[0]).join(""), "lrrllr");
  await prisma().run.updateMany({ where: { status: "queued" }, data: { status: "cancelled" } });
});

test("a level that is none, repeats out of range or a config the form would refuse queue nothing", async () => {
  const before = await queued();
  const level = await post({ config: { kind: "queue" }, levels: ["off", "remote_flush"] });
  assert.equal(level.status, 400);
  assert.equal(level.body.fields?.levels, `"remote_flush" is not a synchronous_commit level: use off, local, remote_write, on or remote_apply`);
  const none = await post({ config: { kind: "queue" } });
  assert.equal(none.status, 400);
  assert.match(none.body.fields?.levels ?? "", /^levels must be a list of synchronous_commit levels/);
  const repeats = await post({ config: { kind: "queue" }, levels: ["off"], repeats: 11 });
  assert.match(repeats.body.fields?.repeats ?? "", /^repeats must be at most 10/);
  const bad = await post({ config: { kind: "queue", writers: 0 }, levels: ["off", "on"] });
  assert.equal(bad.status, 400);
  assert.match(bad.body.fields?.writers ?? "", /^Writers must be at least 1/);
  assert.equal(await queued(), before);
});
