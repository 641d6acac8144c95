// Hostile input against every route: NUL bytes, wrong types, huge and deeply nested bodies, malformed ids,
// cross-origin and foreign-Host requests. The real route handlers and the real proxy run against a real
// control store. No answer may be a 5xx; every 4xx is JSON with a message, and a refused input names its field.
// The routes and pages with an id are found in app/, so a new one cannot be left out.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { NextRequest } from "next/server";
import { PROJECT_ROOT } from "@/lib/paths";
import { proxy } from "../../proxy";
import * as compare from "./compare/route";
import * as imports from "./imports/route";
import * as referenceFit from "./references/[id]/fit/route";
import * as events from "./runs/[id]/events/route";
import * as runOne from "./runs/[id]/route";
import * as runs from "./runs/route";
import * as targets from "./targets/route";
import { appDatabases } from "@/lib/app-testing";

const APP = path.join(PROJECT_ROOT, "app");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;

/** The URL pattern of every file named `file` under app/ ("/api/runs/[id]/cancel"), sorted. */
function appPatterns(file: "route.ts" | "page.tsx", dir = APP): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...appPatterns(file, path.join(dir, e.name)));
    else if (e.name === file) out.push(`/${path.relative(APP, dir).split(path.sep).join("/")}`.replace(/\/$/, "") || "/");
  }
  return out.sort();
}

/** Every handler of every API route with an id, as "METHOD /api/…/[id]/…", read from app/api. */
async function idRoutes(): Promise<{ name: string; pattern: string; method: string; call: Handler }[]> {
  const out: { name: string; pattern: string; method: string; call: Handler }[] = [];
  for (const pattern of appPatterns("route.ts").filter((p) => p.includes("[id]"))) {
    const mod = (await import(path.join(APP, pattern, "route.ts"))) as Partial<Record<string, Handler>>;
    for (const method of METHODS) {
      const call = mod[method];
      if (call) out.push({ name: `${method} ${pattern.replace("[id]", ":id")}`, pattern, method, call });
    }
  }
  return out;
}

/** A well-formed id that names nothing, in the shape of the route's collection. */
function unknownId(pattern: string): string {
  const parts = pattern.split("/");
  const collection = parts[parts.indexOf("[id]") - 1];
  return { imports: "imp_000000000000", targets: "t_0000000000", ceilings: "c_000000000000", references: "no-such-reference" }[collection] ?? "r_000000000000";
}

appDatabases("fuzz");

const BASE = "http://127.0.0.1:3000";
let sent = 0;

/** Checks one answer; `input` says what was sent, for the failure message. */
async function check(input: string, res: Response, opts: { fieldRequired?: boolean } = {}) {
  sent++;
  const text = await res.text();
  assert.ok(res.status < 500, `${input} → ${res.status} ${text.slice(0, 300)}`);
  if (res.status < 400) return;
  let body: { error?: unknown; fields?: Record<string, unknown>; field?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    assert.fail(`${input} → ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  assert.ok(typeof body.error === "string" && body.error.length > 10, `${input} → ${res.status} without a message: ${text.slice(0, 200)}`);
  // 404 (no such run) and 409 (wrong state) answer a well-formed request; the others refuse an input.
  if (opts.fieldRequired !== false && res.status !== 404 && res.status !== 409) {
    const named = typeof body.field === "string" ? [body.field] : Object.keys(body.fields ?? {});
    assert.ok(named.length > 0 && named.every((f) => f && f !== "_"), `${input} → ${res.status} names no field: ${text.slice(0, 300)}`);
  }
}

const BAD_IDS = [
  "\u0000",
  "r_\u0000",
  "default\u0000",
  "r_abc\u0000def",
  "x".repeat(5000),
  "../../etc/passwd",
  "r_abc'; DROP TABLE run;--",
  "😀",
  " ",
  "r_%00",
  "imp_\n",
  "t_\t",
];
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const get = (path: string) => new Request(BASE + path);

test("malformed ids on every :id route answer 400 naming the id, never 5xx", async () => {
  const routes = await idRoutes();
  // The walk found the routes (15 when this was written: runs, targets, imports, references, ceilings).
  assert.ok(routes.length >= 15, `found only ${routes.length} :id handlers under app/api: ${routes.map((r) => r.name).join(", ")}`);
  for (const { name, pattern, method, call } of routes) {
    for (const id of BAD_IDS) {
      const res = await call(new Request(`${BASE}/x`, { method }), ctx(id));
      await check(`${name} with id ${JSON.stringify(id.slice(0, 40))}`, res);
      if (!name.includes("references")) assert.equal(res.status, 400, `${name} ${JSON.stringify(id.slice(0, 20))}`);
    }
    // A well-formed id that does not exist is a 404 with a message.
    await check(`${name} with an unknown id`, await call(new Request(`${BASE}/x`, { method }), ctx(unknownId(pattern))));
  }
});

// Percent-escapes that decode to no UTF-8 text: Next would fail to decode the id and answer a bare 500.
const BAD_ENCODINGS = ["c_%ff", "%ED%A0%80", "r_%E0%A4%A", "%", "%C0%AF", "imp_%80x", "t_%zz"];

test("ids whose %-escapes are not UTF-8 answer 400 naming the id on every route and page (the proxy)", async () => {
  for (const bad of BAD_ENCODINGS) assert.throws(() => decodeURIComponent(bad), URIError, `${bad} is a bad encoding`);
  const targets: { method: string; pattern: string }[] = [
    ...(await idRoutes()).map(({ method, pattern }) => ({ method, pattern })),
    ...appPatterns("page.tsx")
      .filter((p) => p.includes("[id]"))
      .map((pattern) => ({ method: "GET", pattern })),
  ];
  assert.ok(
    targets.some((t) => t.pattern === "/runs/[id]") && targets.some((t) => t.pattern === "/api/ceilings/[id]/cancel"),
    "the walk found pages and routes",
  );
  const headers = { host: "127.0.0.1:3000", origin: BASE, "content-type": "application/json" };
  for (const { method, pattern } of targets)
    for (const bad of BAD_ENCODINGS) {
      const input = `${method} ${pattern.replace("[id]", bad)}`;
      const res = proxy(new NextRequest(BASE + pattern.replace("[id]", bad), { method, headers }));
      assert.equal(res.status, 400, input);
      const body = await res.text();
      assert.ok(body.includes(JSON.stringify(bad).slice(1, -1)), `${input} names the id: ${body.slice(0, 300)}`);
      if (pattern.startsWith("/api/")) {
        await check(input, new Response(body, { status: res.status }));
        assert.match((JSON.parse(body) as { fields: { id: string } }).fields.id, /id .* is not a valid id: its %-escapes are not UTF-8 text/, input);
      } else {
        sent++;
        assert.match(res.headers.get("content-type") ?? "", /text\/html/, input);
        assert.match(body, /is not a valid id: its %-escapes are not UTF-8 text/, input);
      }
    }
  // Ids that do decode go on to the route, which judges them (a valid one is looked up).
  assert.equal(proxy(new NextRequest(`${BASE}/api/runs/r_%41b`, { headers })).headers.get("x-middleware-next"), "1");
});

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const BAD_BODIES: [string, string][] = [
  ["empty", ""],
  ["not JSON", "writers=0"],
  ["truncated", '{"config":'],
  ["array", "[]"],
  ["null", "null"],
  ["number", "42"],
  ["string", '"x"'],
  ["deep array", deep(50_000)],
  ["deep object", `{"config":${'{"a":'.repeat(5000)}1${"}".repeat(5001)}`],
  [
    "huge string",
    JSON.stringify({ config: { kind: "pubsub" }, text: "x".repeat(6 * 1024 * 1024), name: "y".repeat(100_000), connectionString: "z".repeat(100_000) }),
  ],
  ["NUL key", '{"\\u0000":1}'],
  ["config array", '{"config":[]}'],
  ["config null", '{"config":null}'],
  ["config string", '{"config":"pubsub"}'],
  ["config NUL kind", '{"config":{"kind":"\\u0000"}}'],
  ["config wrong types", '{"config":{"kind":"pubsub","writers":"ten","partitions":{},"durationSeconds":[1]}}'],
  ["config huge numbers", '{"config":{"kind":"queue","writers":1e308,"readers":-1e308,"payloadBytes":1e400}}'],
  ["config negative", '{"config":{"kind":"queue","writers":-1,"readers":0}}'],
  ["targetId number", '{"config":{"kind":"queue"},"targetId":5}'],
  ["targetId NUL", '{"config":{"kind":"queue"},"targetId":"default\\u0000"}'],
  ["targetId object", '{"config":{"kind":"queue"},"targetId":{}}'],
  ["name NUL", '{"name":"a\\u0000b","connectionString":"postgresql://u@127.0.0.1:1/db"}'],
  ["connectionString NUL", '{"connectionString":"postgresql://u@127.0.0.1:1/d\\u0000b"}'],
  ["connectionString number", '{"connectionString":5}'],
  ["connectionString key=value", '{"connectionString":"host=h password=x"}'],
  ["text NUL", '{"text":"a\\u0000b"}'],
  ["label NUL", '{"text":"x","label":"a\\u0000b"}'],
  ["text number", '{"text":5}'],
  ["command object", '{"text":"x","command":{}}'],
  ["run name NUL", '{"config":{"kind":"queue"},"name":"a\\u0000b"}'],
  ["run name too long", `{"config":{"kind":"queue"},"name":"${"n".repeat(121)}"}`],
  ["run name number", '{"config":{"kind":"queue"},"name":5}'],
  ["run tag with a space", '{"config":{"kind":"queue"},"tags":["a b"]}'],
  ["run tags object", '{"config":{"kind":"queue"},"tags":{"a":1}}'],
  ["run tags too many", JSON.stringify({ config: { kind: "queue" }, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })],
  ["run notes array", '{"config":{"kind":"queue"},"notes":["x"]}'],
];

test("malformed bodies to every POST route answer 4xx naming the field, never 5xx", async () => {
  const routes: [string, (r: Request) => Promise<Response>][] = [
    ["POST /api/runs", runs.POST],
    ["POST /api/targets", targets.POST],
    ["POST /api/imports", imports.POST],
  ];
  for (const [name, call] of routes)
    for (const [label, body] of BAD_BODIES) {
      for (const type of ["application/json", "text/plain"]) {
        if (type === "text/plain" && name !== "POST /api/imports") continue;
        const res = await call(new Request(`${BASE}/x`, { method: "POST", headers: { "content-type": type }, body }));
        await check(`${name} with ${label} (${type})`, res);
        assert.ok(res.status >= 400, `${name} accepted ${label}`);
      }
    }
  // PATCH /api/runs/:id takes labels only: every body above is refused naming a field, on a run that exists or not.
  const run = await runs.POST(new Request(BASE, { method: "POST", headers: { "content-type": "application/json" }, body: '{"config":{"kind":"queue"}}' }));
  const existing = ((await run.json()) as { id?: string }).id;
  // The bodies of bad labels above, without their config: refused for the label itself.
  const labelsOnly: [string, string][] = BAD_BODIES.filter(([l]) => l.startsWith("run ")).map(([l, b]) => {
    const { config: _, ...rest } = JSON.parse(b) as Record<string, unknown>;
    return [`${l} alone`, JSON.stringify(rest)];
  });
  // Every PATCH route (the sets' labels too: A/B, ladder, ceiling search), found in app/api like the :id routes.
  const patches = (await idRoutes()).filter((r) => r.method === "PATCH");
  assert.ok(patches.length >= 4, `found only ${patches.map((r) => r.name).join(", ")}`);
  const calls = [
    ...patches.map((r) => ({ name: r.name, call: r.call, id: unknownId(r.pattern) })),
    ...(existing ? [{ name: "PATCH /api/runs/:id (a run that exists)", call: runOne.PATCH, id: existing }] : []),
  ];
  for (const { name, call, id } of calls)
    for (const [label, body] of [...BAD_BODIES, ...labelsOnly]) {
      const res = await call(new Request(`${BASE}/x`, { method: "PATCH", headers: { "content-type": "application/json" }, body }), ctx(id));
      await check(`${name} with ${label}`, res);
      assert.ok(res.status >= 400, `${name} accepted ${label}`);
    }
  // The two answers issue #11 found wrong: config [] names config, NUL targetId names targetId.
  const arr = await runs.POST(new Request(BASE, { method: "POST", headers: { "content-type": "application/json" }, body: '{"config":[]}' }));
  assert.deepEqual(Object.keys(((await arr.json()) as { fields: object }).fields), ["config"]);
  const nul = await runs.POST(
    new Request(BASE, { method: "POST", headers: { "content-type": "application/json" }, body: '{"config":{"kind":"queue"},"targetId":"default\\u0000"}' }),
  );
  assert.equal(nul.status, 400);
  assert.match(((await nul.json()) as { fields: { targetId: string } }).fields.targetId, /targetId "default\\u0000" is not a valid id/);
});

test("malformed query strings answer 4xx naming the parameter, never 5xx", async () => {
  const queries: [string, () => Promise<Response>][] = [];
  for (const q of [
    "workload=%00",
    "workload=mysql",
    "workload[]=x",
    "status=%00",
    "status=done,,x",
    `status=${"running,".repeat(2000)}`,
    `workload=${"q".repeat(10_000)}`,
    "tag=a%00",
    `tag=${"t".repeat(41)}`,
    "q=%00",
    `q=${"x".repeat(300)}`,
    "target=t%00",
    "from=2026-13-01",
    "from=yesterday",
    "to=2026-02-30",
    "from=2026-05-02&to=2026-05-01",
  ]) {
    queries.push([`GET /api/runs?${q.slice(0, 40)}`, () => runs.GET(get(`/api/runs?${q}`))]);
    // DELETE takes the same filter: a bad one deletes nothing and names the parameter; an unknown one (workload[])
    // is no filter, which deletes nothing without all=1.
    queries.push([`DELETE /api/runs?${q.slice(0, 40)}`, () => runs.DELETE(new Request(`${BASE}/api/runs?${q}`, { method: "DELETE" }))]);
  }
  for (const q of [
    "ids=%00",
    "ids=r_%00",
    "ids=not-an-id",
    "ids=r_a,%00,imp_x",
    `ids=${"r_a,".repeat(3000)}`,
    "ids=r_a&format=%00",
    "ids=r_a&format=xml",
    "ids=",
    "",
    "ids=ref:nope",
    "ids=r_000000000000&base=%00",
  ])
    queries.push([`GET /api/compare?${q.slice(0, 40)}`, () => compare.GET(get(`/api/compare?${q}`))]);
  for (const q of [
    "config=%00",
    "config=[]",
    "config=null",
    "config={",
    `config=${encodeURIComponent(deep(20_000))}`,
    'config={"kind":"queue","writers":"x"}',
    "targetId=%00",
    `targetId=${"t".repeat(500)}`,
    "targetId=t_0000000000",
  ])
    queries.push([`GET /api/references/:id/fit?${q.slice(0, 40)}`, () => referenceFit.GET(get(`/x?${q}`), ctx("queue-4vcpu-single-node"))]);
  for (const q of ["histograms=%00", "histograms=yes", `histograms=${"1".repeat(5000)}`])
    queries.push([`GET /api/runs/:id?${q.slice(0, 30)}`, () => runOne.GET(get(`/x?${q}`), ctx("r_000000000000"))]);
  for (const q of ["ids=r_a&full=true", "ids=r_a&download=%00", "ids=r_a&format=json&format=md"])
    queries.push([`GET /api/compare?${q}`, () => compare.GET(get(`/api/compare?${q}`))]);
  for (const q of ["after=%00", "after=-5", "after=1e400", "after=abc"])
    queries.push([`GET /api/runs/:id/events?${q}`, () => events.GET(get(`/x?${q}`), ctx("r_000000000000"))]);
  // GET /api/health takes no input (its 503 says a part is down, which is its job); it is left out.
  queries.push(["GET /api/targets", () => targets.GET()]);
  queries.push(["GET /api/imports", () => imports.GET()]);
  for (const [input, call] of queries) {
    const res = await call();
    // A malformed parameter is refused before anything is looked up: never the 404 of the unknown run.
    if (/histograms=|full=true|download=%00|runs\?(tag|q|target|from|to)=/.test(input)) assert.equal(res.status, 400, input);
    await check(input, res);
  }
});

test("the proxy refuses cross-origin state changes and foreign Hosts naming the header, on every route", async () => {
  // Every route and page under app/, an id filled in where the path takes one.
  const paths = [...appPatterns("route.ts"), ...appPatterns("page.tsx")].map((p) => p.replace("[id]", unknownId(p)));
  assert.ok(paths.includes("/api/ceilings/c_000000000000/cancel") && paths.includes("/runs/new") && paths.includes("/"), paths.join(" "));
  const cases: { method: string; headers: Record<string, string>; status: number }[] = [
    { method: "POST", headers: { host: "127.0.0.1:3000", origin: "http://evil.example", "content-type": "text/plain", "content-length": "2" }, status: 403 },
    { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json", "content-length": "2" }, status: 403 },
    { method: "DELETE", headers: { host: "127.0.0.1:3000", "sec-fetch-site": "cross-site" }, status: 403 },
    { method: "POST", headers: { host: "127.0.0.1:3000", origin: "null" }, status: 403 },
    { method: "POST", headers: { host: "127.0.0.1:3000", origin: BASE, "content-type": "text/plain", "content-length": "2" }, status: 415 },
    { method: "GET", headers: { host: "evil.example:3000" }, status: 421 },
    {
      method: "POST",
      headers: { host: "evil.example:3000", origin: "http://evil.example:3000", "content-type": "application/json", "content-length": "2" },
      status: 421,
    },
    { method: "GET", headers: { host: "127.0.0.1.evil.example" }, status: 421 },
  ];
  for (const p of paths)
    for (const c of cases) {
      if (c.status === 415 && p === "/api/imports") continue; // text/plain is one of the import's forms
      const res = proxy(new NextRequest(BASE + p, { method: c.method, headers: c.headers }));
      const input = `${c.method} ${p} ${JSON.stringify(c.headers)}`;
      assert.equal(res.status, c.status, input);
      await check(input, res);
    }
  // Same-origin requests pass (the proxy hands them on: no status of its own).
  const ok = proxy(
    new NextRequest(`${BASE}/api/runs`, {
      method: "POST",
      headers: { host: "127.0.0.1:3000", origin: BASE, "content-type": "application/json", "content-length": "2" },
    }),
  );
  assert.equal(ok.headers.get("x-middleware-next"), "1");
});

test("at least 300 malformed requests were sent", (t) => {
  t.diagnostic(`${sent} malformed requests sent`);
  assert.ok(sent >= 300, `only ${sent} requests`);
});
