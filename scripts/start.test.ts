// `npm start` as a user meets it: bad configuration gives one clear line, fast, with the password masked.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { freePort } from "../lib/testing";

/** `npm start`'s script with `env`: its exit code, its output, and the ms from its first line (the URL, once Node and
 *  tsx have loaded it, which a busy machine slows) to its exit. */
function start(env: Record<string, string>): Promise<{ code: number | null; out: string; ms: number }> {
  let t0 = 0;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "scripts", "start.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, SKIP_BUILD: "1", ...env },
    });
    let out = "";
    const take = (d: Buffer) => {
      t0 ||= Date.now();
      out += d;
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(kill);
      resolve({ code, out, ms: t0 ? Date.now() - t0 : Number.NaN });
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
  assert.ok(r.ms < 10_000, `took ${r.ms} ms after its first line`);
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
