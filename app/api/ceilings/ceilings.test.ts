// The ceiling search API against a real control store and target: launch checks (config, settings, target)
// named field by field, the search's life-cycle over the API (queued, cancelled, deleted), malformed ids.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as cancel from "./[id]/cancel/route";
import * as one from "./[id]/route";
import * as ceilings from "./route";
import { appDatabases } from "@/lib/app-testing";

appDatabases("ceiling_api");

const BASE = "http://127.0.0.1:3000";
const post = (body: unknown) =>
  ceilings.POST(new Request(`${BASE}/api/ceilings`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const config = { kind: "queue", writers: 1, readers: 1 };

test("a search is refused field by field: settings, metric, config, unknown keys", async () => {
  const cases: [unknown, string, RegExp][] = [
    [{ config }, "settings", /settings is required/],
    [{ config, settings: { slo: "p98<5ms" } }, "slo", /Latency goal: "p98<5ms": unknown percentile/],
    [{ config, settings: { slo: "p99<50ms", metric: "nope" } }, "metric", /Metric nope: the queue workload measures no such latency; use e2e/],
    [{ config, settings: { slo: "p99<50ms", stepSeconds: 1 } }, "stepSeconds", /Step must be at least 3/],
    [{ config, settings: { slo: "p99<50ms", startRate: 500, maxRate: 100 } }, "startRate", /Start rate must be at most the maximum rate/],
    [{ config, settings: { slo: "p99<50ms", extra: 1 } }, "extra", /unknown setting "extra": the settings are slo, metric, stepSeconds/],
    [{ config: { kind: "queue", writers: 0 }, settings: { slo: "p99<50ms" } }, "writers", /Writers/],
    [
      { config, settings: { slo: "p99<50ms" }, colour: "red" },
      "colour",
      /unknown field "colour": the body has config, settings, targetId, name, notes and tags only/,
    ],
  ];
  for (const [body, field, message] of cases) {
    const res = await post(body);
    const j = await res.json();
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match(String(j.fields?.[field]), message, `${JSON.stringify(body)} → ${JSON.stringify(j)}`);
  }
});

test("a search is queued, listed, shown, cancelled before it starts and deleted", async () => {
  const res = await post({ config, settings: { slo: "p99<50ms", stepSeconds: 5, maxRate: 2000 } });
  assert.equal(res.status, 201, await res.clone().text());
  const { id, url } = await res.json();
  assert.match(id, /^c_[0-9a-f]{12}$/);
  assert.equal(url, `/ceilings/${id}`);
  const shown = await (await one.GET(new Request(`${BASE}${url}`), ctx(id))).json();
  assert.equal(shown.status, "queued");
  assert.equal(shown.settings.slo, "p99<50ms");
  assert.equal(shown.settings.startRate, 100, "defaults filled in");
  assert.deepEqual(shown.steps, []);
  const list = await (await ceilings.GET(new Request(`${BASE}/api/ceilings?workload=queue`))).json();
  assert.ok(list.ceilings.some((c: { id: string }) => c.id === id));
  assert.equal((await ceilings.GET(new Request(`${BASE}/api/ceilings?workload=kafka`))).status, 400);

  const busy = await one.DELETE(new Request(`${BASE}${url}`, { method: "DELETE" }), ctx(id));
  assert.equal(busy.status, 409);
  assert.match((await busy.json()).error, /cancel it first/);
  const c = await cancel.POST(new Request(`${BASE}${url}/cancel`, { method: "POST" }), ctx(id));
  assert.deepEqual(await c.json(), { status: "cancelled" });
  assert.equal((await cancel.POST(new Request(`${BASE}${url}/cancel`, { method: "POST" }), ctx(id))).status, 409);
  assert.equal((await one.DELETE(new Request(`${BASE}${url}`, { method: "DELETE" }), ctx(id))).status, 200);
  assert.equal((await one.GET(new Request(`${BASE}${url}`), ctx(id))).status, 404);
});

test("malformed ids answer 400 naming the id", async () => {
  for (const id of ["\u0000", "c_\u0000", "x".repeat(500), "../x"]) {
    for (const res of [
      await one.GET(new Request(`${BASE}/x`), ctx(id)),
      await cancel.POST(new Request(`${BASE}/x`, { method: "POST" }), ctx(id)),
      await one.DELETE(new Request(`${BASE}/x`, { method: "DELETE" }), ctx(id)),
    ]) {
      assert.equal(res.status, 400, JSON.stringify(id));
      assert.match((await res.json()).fields.id, /ceiling search id .* is not a valid id/);
    }
  }
});
