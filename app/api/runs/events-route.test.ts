// GET /api/runs/:id/events (beside, not inside, [id]/: node --test reads brackets in a path as a glob): `?after=` is a sample's sequence number or a 400 naming it, never read as the start.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRun, finishRun } from "@/lib/runs/store";
import { controlStoreForFile } from "@/lib/runs/stream-testing";
import { WorkloadConfig } from "@/lib/workloads/config";
import { GET } from "./[id]/events/route";

controlStoreForFile("events_route_ctl");

const get = (id: string, query: string) => GET(new Request(`http://127.0.0.1/api/runs/${id}/events${query}`), { params: Promise.resolve({ id }) });

test("an `after` that is no sequence number (NaN, 1.5, empty) is a 400 naming it; a number streams", async () => {
  const run = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });
  await finishRun(run.id, { status: "completed" });
  for (const bad of ["NaN", "1.5", "", "abc", "1e3"]) {
    const res = await get(run.id, `?after=${encodeURIComponent(bad)}`);
    assert.equal(res.status, 400, `after=${bad}`);
    const body = (await res.json()) as { error: string };
    assert.match(body.error, /^after=.* is not a sample's sequence number: give the seq of the last sample received/, body.error);
  }
  for (const good of ["", "?after=-1", "?after=3"]) {
    const res = await get(run.id, good);
    assert.equal(res.status, 200, good);
    assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
    // The run is over: the stream says so and ends (read whole, so no reader outlives the test's control store).
    assert.match(await res.text(), /event: end/);
  }
});
