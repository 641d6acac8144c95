// deploy/healthcheck.mjs, the app container's health check, run as the containers run it (a separate node
// process, PORT from the environment) against the product's own answers: nothing listening, npm start's starting
// page, and /api/health's body from lib/status/health.ts over a real control store, up and down.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { after, before, test } from "node:test";
import { checkHealth } from "../lib/status/health";
import { PROJECT_ROOT } from "../lib/paths";
import { freePort, testControlStore } from "../lib/testing";
import { serveStartingPage, StartupProgress } from "../scripts/starting-page";

let store: Awaited<ReturnType<typeof testControlStore>>;
before(async () => {
  store = await testControlStore("deploy_health");
});
after(async () => {
  await store.drop();
});

/** Runs the health check as `node deploy/healthcheck.mjs` with PORT set; its exit code and what it printed. */
function healthcheck(port: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join("deploy", "healthcheck.mjs")], { cwd: PROJECT_ROOT, env: { ...process.env, PORT: String(port) } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** /api/health as the route answers it (app/api/health/route.ts): lib/status/health.ts's body, 503 unless all is up. */
async function serveHealth(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    checkHealth().then((h) => {
      res.writeHead(h.ok ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify(h));
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return { port, close: () => new Promise((r) => server.close(() => r())) };
}

test("nothing listening: not healthy, saying why", async () => {
  const r = await healthcheck(await freePort());
  assert.equal(r.code, 1);
  assert.match(r.out, /not ready: /);
});

test("npm start's starting page: not healthy yet, with what it is doing", async () => {
  const progress = new StartupProgress();
  progress.begin("applying the control-store migrations");
  const port = await freePort();
  const page = await serveStartingPage({ host: "127.0.0.1", port, progress, appUrl: `http://127.0.0.1:${port}` });
  try {
    const r = await healthcheck(port);
    assert.equal(r.code, 1);
    assert.match(r.out, /not ready: .*migrations/);
  } finally {
    await page.close();
  }
});

test("healthy once the control store answers, though /api/health is 503 while no runner heart-beats", async () => {
  const api = await serveHealth();
  try {
    const h = await checkHealth();
    assert.equal(h.ok, false, "no runner heart-beats in this test: /api/health answers 503");
    assert.equal(h.controlStore.up, true);
    const r = await healthcheck(api.port);
    assert.equal(r.code, 0, r.out);
  } finally {
    await api.close();
  }
});

test("a control store that does not answer: not healthy, naming the cause", async () => {
  const url = process.env.DATABASE_URL;
  const closed = await freePort();
  process.env.DATABASE_URL = `postgresql://nobody:x@127.0.0.1:${closed}/none`;
  const api = await serveHealth();
  try {
    const r = await healthcheck(api.port);
    assert.equal(r.code, 1);
    assert.match(r.out, /not ready: \S/);
  } finally {
    await api.close();
    process.env.DATABASE_URL = url;
  }
});
