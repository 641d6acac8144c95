// Methods the app does not answer (TRACE, PUT, PROPFIND, …) get 405 with an Allow header on every route and page of
// the real app (`npm start`'s code), and nothing alarming in its log. Next would build a fetch Request of a TRACE
// and throw (a bare 500 and a TypeError logged each time), so scripts/serve-next.ts refuses them before Next.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { freePort } from "../lib/testing";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "pgbb-methods-"));
chmodSync(dataDir, 0o755); // the embedded Postgres runs as the postgres user when root and must enter it
let port: number;
let out = "";
let exited: Promise<number | null>;
let child: ReturnType<typeof spawn>;

before(async () => {
  port = await freePort();
  child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "scripts", "start.ts")], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_TARGET_PG_PORT: String(await freePort()),
    },
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  exited = new Promise((r) => child.on("exit", (code) => r(code)));
  const until = Date.now() + 540_000; // includes a build of the web app when .next is stale
  while (!out.includes("ready:")) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`the app did not start:\n${out.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

after(async () => {
  child.kill("SIGINT");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** One request by node:http (fetch refuses to send TRACE), with this server's Origin as a script would send it. */
function send(method: string, where: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: where, method, headers: { origin: `http://127.0.0.1:${port}` } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("TRACE, PUT and other methods the app does not answer get 405 naming the allowed ones, on routes and pages", { timeout: 600_000 }, async () => {
  const logBefore = out.length;
  for (const method of ["TRACE", "PUT", "PATCH", "PROPFIND"])
    for (const where of ["/api/health", "/api/runs", "/api/runs/r_1", "/", "/runs", "/no-such-page"]) {
      const r = await send(method, where);
      assert.equal(r.status, 405, `${method} ${where}: ${r.status} ${r.body}`);
      assert.equal(r.headers.allow, "GET, HEAD, OPTIONS, POST, DELETE", `${method} ${where}`);
      const body = JSON.parse(r.body);
      assert.match(body.error, new RegExp(`^${method} is not answered here: .*GET, HEAD, OPTIONS, POST, DELETE`), `${method} ${where}`);
    }
  // Methods it answers are not refused by the new check.
  assert.equal((await send("GET", "/api/health")).status, 200);
  assert.equal((await send("HEAD", "/api/health")).status, 200);
  await new Promise((r) => setTimeout(r, 500)); // a line logged for the last request would be in by now
  assert.doesNotMatch(out.slice(logBefore), /TypeError|Error|⨯/, "nothing alarming logged");
});
