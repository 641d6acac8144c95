// The queues sweep: the command line it reads, and a real sweep through the CLI process (one ordinary run per
// queue count against a test database, each with its own --json, then the curve).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { PROJECT_ROOT } from "../../lib/paths";
import { RunSummary } from "../../lib/measurement/summary";
import { testDatabase } from "../../lib/testing";
import { queuesSweep } from "./sweep";
import { throughputOf } from "../../lib/measurement/operations";

test("a list of queue counts is a sweep; each run gets its count and its own --json file", () => {
  assert.deepEqual(queuesSweep(["queued-workflows", "-queues", "4"]), { kind: "none" });
  assert.deepEqual(queuesSweep(["queued-workflows"]), { kind: "none" });
  const s = queuesSweep(["queued-workflows", "--queues", "1,2,4", "--json", "out/q.json", "-duration", "5s"]);
  assert.ok(s.kind === "sweep");
  assert.deepEqual(s.counts, [1, 2, 4]);
  assert.deepEqual(s.argvFor(2), ["queued-workflows", "--queues", "2", "--json", "out/q-queues-2.json", "-duration", "5s"]);
  const inline = queuesSweep(["queued-workflows", "--queues=1,8", "--json=run"]);
  assert.ok(inline.kind === "sweep");
  assert.deepEqual(inline.argvFor(8), ["queued-workflows", "--queues=8", "--json=run-queues-8"]);
  assert.deepEqual(queuesSweep(["queued-workflows", "-queues", "1,x"]), {
    kind: "error",
    message: '-queues 1,x: "x" is not a number of queues from 1 to 1024 (a sweep is a list such as 1,2,4,8)',
  });
  assert.deepEqual(queuesSweep(["queued-workflows", "-queues", "2,2"]), { kind: "error", message: "-queues 2,2: a queue count is listed twice" });
  assert.equal(queuesSweep(["queued-workflows", "-queues", "0,1"]).kind, "error");
});

let target: { url: string; drop: () => Promise<void> };
let dir: string;
before(async () => {
  target = await testDatabase("qw_sweep");
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-qw-sweep-"));
});
after(async () => {
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

function bench(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "runner/cli.ts", ...args], {
      cwd: PROJECT_ROOT,
      // No embedded fallback: a test must never start a server on the default data folder.
      env: { ...process.env, DATA_DIR: path.join(dir, "no-embedded"), DATABASE_URL: "", TARGET_DATABASE_URL: "" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
  });
}

test("npm run bench -- queued-workflows --queues 1,3: two runs, their summaries, and completion rate against queues", async () => {
  const json = path.join(dir, "sweep.json");
  const html = path.join(dir, "sweep.html");
  const r = await bench([
    "queued-workflows",
    "--queues",
    "1,3",
    "-enqueuers",
    "2",
    "-workers",
    "2",
    "-executors",
    "2",
    "--rate",
    "200",
    "-poll-ms",
    "200",
    "-duration",
    "1s",
    "--warmup",
    "0s",
    "--json",
    json,
    "--html",
    html,
    "--target",
    target.url,
  ]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /--- queues 1 \(1 of 2\) ---/);
  assert.match(r.out, /--- queues 3 \(2 of 2\) ---/);
  const table = r.out.slice(r.out.indexOf("=== completion rate against the number of queues ==="));
  const rows = table.split("\n").filter((l) => /^\d+\s/.test(l));
  assert.equal(rows.length, 2, table);
  for (const [i, q] of [1, 3].entries()) {
    const file = json.replace(/\.json$/, `-queues-${q}.json`);
    assert.ok(existsSync(file), `${file} written`);
    const s = RunSummary.parse(JSON.parse(readFileSync(file, "utf8")));
    assert.equal((s.config as { queues: number }).queues, q);
    assert.equal(s.verification.ok, true);
    // The table's completion rate is the run's measured one.
    const cells = rows[i].trim().split(/\s{2,}/);
    assert.equal(cells[0], String(q));
    assert.equal(cells[2], Math.round(throughputOf(s, "read")!.perSecond).toLocaleString("en-US"));
  }
  assert.match(table, /Published \(DBOS, 2\.17\): 12\.1K workflows\/s on one queue, 30\.6K over many/);
  // --html: the sweep's report, its two runs compared (each run's own report is not written over it).
  assert.match(r.out, /report of the sweep written to .*sweep\.html/);
  const report = readFileSync(html, "utf8");
  assert.match(report, /data-keys="queues 1,queues 3"/);
  assert.match(report, /data-testid="report-chart-throughput-bars"/);
  assert.doesNotMatch(report, /<script|https?:\/\//);
});

test("a sweep of another workload's flag is refused like any misplaced flag", async () => {
  const r = await bench(["queue", "-queues", "1,2", "--target", target.url]);
  assert.equal(r.code, 2);
  assert.match(r.err, /-queues applies to the queued-workflows workload only, not queue/);
});
