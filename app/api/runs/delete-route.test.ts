// DELETE /api/runs with the list's filter: a filter deletes the finished runs it matches; no filter (or only a
// parameter it does not know) deletes nothing and says how to ask for every run, which all=1 then does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRun, finishRun, listRunRows } from "@/lib/runs/store";
import { controlStoreForFile } from "@/lib/runs/stream-testing";
import { WorkloadConfig } from "@/lib/workloads/config";
import { DELETE } from "./route";

controlStoreForFile("delete_route_ctl");

const del = (query: string) => DELETE(new Request(`http://127.0.0.1/api/runs${query}`, { method: "DELETE" }));

test("no filter deletes nothing and names the filters and all=1; a filter deletes its finished runs; all=1 the rest", async () => {
  const finished = async (kind: "queue" | "pubsub") => {
    const r = await createRun({ config: WorkloadConfig.parse({ kind }), targetLabel: "t", status: "running" });
    await finishRun(r.id, { status: "completed" });
    return r.id;
  };
  const queue = await finished("queue");
  const pubsub = await finished("pubsub");
  const running = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });

  for (const q of ["", "?", "?workload[]=queue", "?all=yes", "?status="]) {
    const res = await del(q);
    assert.equal(res.status, 400, q);
    const { error } = (await res.json()) as { error: string };
    assert.match(error, /^no filter given, so every finished run would be deleted: give one or more of workload, status, .* or all=1/, q);
  }
  assert.equal((await listRunRows({})).length, 3, "nothing deleted");

  const one = await del("?workload=pubsub");
  assert.equal(one.status, 200);
  assert.deepEqual(await one.json(), { deleted: 1, skipped: 0 });
  assert.deepEqual((await listRunRows({})).map((r) => r.id).sort(), [queue, running.id].sort());

  const all = await del("?all=1");
  assert.equal(all.status, 200);
  assert.deepEqual(await all.json(), { deleted: 1, skipped: 1 }, "the running run is kept");
  assert.deepEqual(
    (await listRunRows({})).map((r) => r.id),
    [running.id],
  );
  assert.ok(!(await listRunRows({})).some((r) => r.id === pubsub));
});
