// The "starting" page of `npm start`: what it says, what API clients get, and that handing its port to the web
// app's process never leaves the address refusing a connection.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { freePort } from "../lib/testing";
import { buildStageReader, serveStartingPage, startingHtml, StartupProgress } from "./starting-page";

test("progress records each step's measured duration and shows the current step's elapsed time and latest line", () => {
  const p = new StartupProgress();
  assert.equal(p.detail(0), "starting");
  p.begin("starting the embedded Postgres", 1_000);
  p.begin("building the web app", 4_400);
  p.line("Creating an optimized production build ...");
  p.line("✓ Compiled successfully in 21s");
  assert.equal(p.detail(38_000), "building the web app (34 s): ✓ Compiled successfully in 21s");
  const s = p.snapshot(38_000);
  assert.deepEqual(s.done, [{ label: "starting the embedded Postgres", ms: 3_400 }]);
  assert.deepEqual(s.current, { label: "building the web app", elapsedMs: 33_600 });
  const html = startingHtml(p, "http://127.0.0.1:3000", 38_000);
  assert.match(html, /<meta http-equiv="refresh" content="2">/);
  assert.match(html, /✓ starting the embedded Postgres <span>3 s<\/span>/);
  assert.match(html, /building the web app <span>34 s so far<\/span>/);
  assert.match(html, /✓ Compiled successfully in 21s/);
  p.begin("starting the web app", 40_000);
  assert.equal(p.detail(40_000), "starting the web app (0 s)", "a new step starts without the previous step's lines");
});

test("the build's stage lines are read as they arrive (split anywhere), without colours, blanks or the route table", () => {
  // `next build` 16's output as `npm start` receives it through a pipe (recorded), then a line coloured as
  // with FORCE_COLOR set.
  const output =
    "▲ Next.js 16.4.6 (Turbopack)\n✓ Running next.config.ts took 24ms\n\n" +
    "  Creating an optimized production build ...\n" +
    "✓ Compiled successfully in 1990ms\n" +
    "  Collecting page data using 1 worker ...\n" +
    "  Generating static pages using 1 worker (0/4) ...\n" +
    "  Generating static pages using 1 worker (1/4) \r\n" +
    "✓ Generating static pages using 1 worker (4/4) in 143ms\n" +
    "  \x1b[1mFinalizing\x1b[22m page optimization ...\n\n" +
    "Route (app)\n┌ ƒ /\n├ ○ /_not-found\n└ ƒ /runs/[id]\n\nƒ  (Dynamic)  server-rendered on demand\n";
  const lines: string[] = [];
  const read = buildStageReader((l) => lines.push(l));
  for (let i = 0; i < output.length; i += 13) read(output.slice(i, i + 13));
  assert.deepEqual(lines, [
    "▲ Next.js 16.4.6 (Turbopack)",
    "✓ Running next.config.ts took 24ms",
    "Creating an optimized production build ...",
    "✓ Compiled successfully in 1990ms",
    "Collecting page data using 1 worker ...",
    "Generating static pages using 1 worker (0/4) ...",
    "Generating static pages using 1 worker (1/4)",
    "✓ Generating static pages using 1 worker (4/4) in 143ms",
    "Finalizing page optimization ...",
  ]);
});

test("browsers get the page, /api/* gets 503 {status: starting}", async () => {
  const port = await freePort();
  const progress = new StartupProgress();
  progress.begin("applying the control-store migrations");
  const s = await serveStartingPage({ host: "127.0.0.1", port, progress, appUrl: `http://127.0.0.1:${port}` });
  try {
    const page = await fetch(`http://127.0.0.1:${port}/runs/new`);
    assert.equal(page.status, 503);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(await page.text(), /pg-broker-bench is starting[\s\S]*applying the control-store migrations \(\d+ s\)/);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    assert.equal(health.status, 503);
    assert.equal(health.headers.get("retry-after"), "2");
    const body = await health.json();
    assert.equal(body.status, "starting");
    assert.match(body.detail, /^applying the control-store migrations \(\d+ s\)$/);
  } finally {
    await s.close();
  }
});

test("a second server on the same address is refused (EADDRINUSE), so start.ts can say the port is taken", async () => {
  const port = await freePort();
  const progress = new StartupProgress();
  const first = await serveStartingPage({ host: "127.0.0.1", port, progress, appUrl: "" });
  try {
    await assert.rejects(serveStartingPage({ host: "127.0.0.1", port, progress, appUrl: "" }), { code: "EADDRINUSE" });
  } finally {
    await first.close();
  }
});

test("the hand-over to the app's process keeps the address answering, then the app serves it", async () => {
  const port = await freePort();
  const progress = new StartupProgress();
  progress.begin("starting the web app");
  const s = await serveStartingPage({ host: "127.0.0.1", port, progress, appUrl: "" });
  // A stand-in for serve-next.ts with the same hand-over code: an app that answers "app <pid>" after 1 s of "preparing".
  const module = JSON.stringify(path.join(PROJECT_ROOT, "scripts", "starting-page.ts"));
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `const http = require("node:http");
       const { serveHandedOverPort } = require(${module});
       setTimeout(async () => {
         const server = http.createServer((req, res) => res.end("app " + process.pid));
         await serveHandedOverPort(server);
       }, 1000);
       process.on("disconnect", () => process.exit(0));`,
    ],
    { cwd: PROJECT_ROOT, stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  const answers: string[] = [];
  let refused = 0;
  let handedOver = false;
  const handOver = s.handOver(child).then(() => (handedOver = true));
  try {
    // Ask without pause until well after the hand-over: every request must get an answer.
    const until = Date.now() + 30_000;
    let afterHandOver = 0;
    while (Date.now() < until && afterHandOver < 20) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/`);
        const text = await r.text();
        answers.push(r.status === 503 ? "starting" : text);
      } catch {
        refused++;
      }
      if (handedOver) afterHandOver++;
    }
    await handOver;
    assert.equal(refused, 0, "no request was refused");
    assert.equal(answers[0], "starting");
    assert.equal(answers[answers.length - 1], `app ${child.pid}`);
    const firstApp = answers.indexOf(`app ${child.pid}`);
    assert.ok(firstApp > 0 && answers.slice(firstApp + 1).every((a) => a === `app ${child.pid}` || a === "starting"));
    assert.ok(
      answers.slice(-10).every((a) => a === `app ${child.pid}`),
      "after the hand-over only the app answers",
    );
  } finally {
    child.kill();
    await s.close();
  }
});
