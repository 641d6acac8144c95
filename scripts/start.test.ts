// `npm start` as a user meets it: bad configuration gives one clear line, fast, with the password masked.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { freePort } from "../lib/testing";

function start(env: Record<string, string>): Promise<{ code: number | null; out: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "scripts", "start.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, SKIP_BUILD: "1", ...env },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(kill);
      resolve({ code, out, ms: Date.now() - t0 });
    });
  });
}

test("an unreachable DATABASE_URL fails within 10 s with one line naming the variable, password masked", async () => {
  const deadPort = await freePort();
  const r = await start({
    PORT: String(await freePort()),
    DATABASE_URL: `postgresql://alice:topsecret@127.0.0.1:${deadPort}/control`,
    TARGET_DATABASE_URL: `postgresql://alice:topsecret@127.0.0.1:${deadPort}/target`,
  });
  assert.equal(r.code, 1);
  assert.ok(r.ms < 10_000, `took ${r.ms} ms`);
  assert.match(r.out, /DATABASE_URL: cannot connect to postgresql:\/\/alice:\*\*\*\*@127\.0\.0\.1:\d+\/control: connection refused/);
  assert.ok(!r.out.includes("topsecret"), "password never printed");
  assert.match(r.out.split("\n")[0], /open http:\/\/127\.0\.0\.1:\d+/, "first line is the URL");
});

test("a malformed variable is named before anything starts", async () => {
  const r = await start({ PORT: "seventy", TARGET_DATABASE_URL: "mysql://x/y" });
  assert.equal(r.code, 1);
  assert.match(r.out, /PORT must be a port number/);
  assert.match(r.out, /TARGET_DATABASE_URL has scheme "mysql"/);
});
