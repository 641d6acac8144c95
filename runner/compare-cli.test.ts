// `npm run bench -- compare`: a run executed by the real engine against a real (embedded) target and stored in
// a real control store, a real tool output imported, and a published reference, printed as the page's table.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { prisma } from "../lib/db";
import { createImport } from "../lib/imports/store";
import { PROJECT_ROOT, TOOL_OUTPUT_DIR } from "../lib/paths";
import { createRun, finishRun } from "../lib/runs/store";
import { RunSummary } from "../lib/measurement/summary";
import { testControlStore, testDatabase } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { main, parseCompareArgs } from "./compare-cli";
import { runWorkload } from "./engine";
import { throughputOf } from "../lib/measurement/operations";

const QUEUE_OUT = readFileSync(path.join(TOOL_OUTPUT_DIR, "queue-4vcpu-preset-30s.txt"), "utf8");

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
let runId = "";
let bossId = "";
let importId = "";
let summary: RunSummary;

async function cli(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

before(async () => {
  ctl = await testControlStore("cmpcli");
  target = await testDatabase("cmpcli_target");
  const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, warmupSeconds: 1, durationSeconds: 2 });
  const run = await createRun({ config, targetLabel: "embedded default", source: "cli", status: "running" });
  summary = await runWorkload(config, target.url);
  await finishRun(run.id, { status: "completed", summary });
  runId = run.id;
  bossId = await storeRecorded("runs/pg-boss.json");
  const imp = await createImport({ text: QUEUE_OUT, label: "queue 30s", command: "./pg_msg_bench --writers=10 --readers=15 --duration=30s --mode=queue" });
  assert.ok(imp.ok);
  importId = imp.id;
});

/** A run recorded by the engine (fixtures/), stored as the runner stores a finished run: its id. */
async function storeRecorded(file: string): Promise<string> {
  const recorded = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures", file), "utf8"));
  const run = await createRun({ config: WorkloadConfig.parse(recorded.run.config), targetLabel: "embedded default", source: "cli", status: "running" });
  await finishRun(run.id, { status: "completed", summary: RunSummary.parse(recorded.run.summary) });
  return run.id;
}

after(async () => {
  await prisma().$disconnect();
  await target?.drop();
  await ctl?.drop();
});

test("the table: a stored run, an import and a reference, deltas against the baseline", async () => {
  const r = await cli([runId, importId, "queue-4vcpu-single-node", "--baseline", "ref:queue-4vcpu-single-node"]);
  assert.equal(r.code, 0, r.err);
  const line = r.out.split("\n").find((l) => l.startsWith("Write msg/s"))!;
  const rate = throughputOf(summary, "write")!.perSecond.toLocaleString("en-US", { maximumFractionDigits: 2 });
  assert.ok(line.includes(rate), `${line} should show ${rate}`);
  assert.match(line, /2,973\.93 \(\+3\.1 %\)/); // the import against the published 2,885
  assert.match(r.out, /Published: queue · 4 vCPU single node \[published\] \(baseline\)/);
  assert.match(r.out, /Imported: queue 30s \[imported\]/);
  assert.match(r.out, /What makes this comparison unfair/);
  // Beyond ±50 % a factor: the import's 8.56 s against the published 5.07 ms (it read "1,688×"), and the other
  // way round, the published 5.07 ms against the import's 8.56 s (it read "−99.9 %").
  const e2e = (out: string) => out.split("\n").find((l) => l.startsWith("End-to-end p50"))!;
  assert.match(e2e(r.out), /8\.56 s \(×1,690\)\s+5\.07 ms$/);
  const reversed = await cli([importId, "queue-4vcpu-single-node", "--baseline", importId]);
  assert.match(e2e(reversed.out), /8\.56 s\s+5\.07 ms \(÷1,690\)$/);
  // The caveats ranked, the first few and then the rest under their own heading.
  assert.match(r.out, /What makes this comparison unfair \(most telling first\):\n( {2}[!-] .+\n){4}\n\d+ more, less likely to change the reading:\n/);
});

test("Markdown, CSV and JSON, as the page exports", async () => {
  const md = await cli([runId, "ref:queue-4vcpu-single-node", "--format", "md"]);
  assert.equal(md.code, 0, md.err);
  assert.match(md.out, /\| Published: queue · 4 vCPU single node \| published \| .* \| 2,885 msg\/s \/ 2\.82 MiB\/s \|/);
  const csv = await cli([runId, "--format=csv"]);
  assert.ok(csv.out.includes(String(throughputOf(summary, "write")!.perSecond)));
  const json = JSON.parse((await cli([importId, "--format", "json"])).out);
  assert.equal(json.items[0].badge, "imported");
  assert.equal(json.results.find((x: { key: string }) => x.key === "e2e.p50").values[0], 8560.574463);
});

test("--html FILE: the same comparison as one self-contained report; a folder that does not exist is refused first", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-cmp-html-"));
  try {
    const file = path.join(dir, "cmp.html");
    const r = await cli([runId, importId, "ref:queue-4vcpu-single-node", "--html", file]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /report written to .*cmp\.html/);
    assert.match(r.out, /Write msg\/s/, "the table is printed as before");
    const html = readFileSync(file, "utf8");
    assert.match(html, new RegExp(`data-keys="${runId},${importId},ref:queue-4vcpu-single-node"`));
    const rate = throughputOf(summary, "write")!.perSecond;
    assert.match(html, new RegExp(`data-value="${rate}"`), "the run's write rate as a bar");
    assert.match(html, /2,973\.93/, "the import's write rate in the results table");
    assert.doesNotMatch(html, /<script|https?:\/\/|\shref=/i);
    const missing = await cli([runId, "--html", path.join(dir, "no", "cmp.html")]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^bench compare: --html .*: the folder .*no does not exist/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("runs of different queue-like workloads: which sustained what comes first, flagged when not offered one rate", async () => {
  const r = await cli([runId, bossId]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Which sustained what:\nRun +Workload and settings +Offered +Consumed +Kept up +→ start p50/);
  // The queue ran unthrottled (no rate offered), pg-boss at 200 jobs/s: the dash, the recorded 120 job/s consumed, and the flag.
  const row = (id: string) => r.out.split("\n").find((l) => l.startsWith(id)) ?? "";
  assert.match(row(bossId), / 200 job\/s +120 job\/s +no +1\.18 s /);
  assert.match(row(runId), /queue: 1 writer, 1 reader.* +— +[\d,.]+ msg\/s +— /);
  assert.match(r.out, /\n {2}not at the same offered rate: compare at one rate \(.*: none offered; .*pg-boss 200\/s: 200 job\/s\)/);
  const md = await cli([runId, bossId, "--format", "md"]);
  assert.match(md.out, /## Which sustained what\n/);
});

test("mistakes get a message and an exit code", async () => {
  const missing = await cli(["r_nope"]);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /r_nope: no such run/);
  assert.equal((await cli([])).code, 2);
  assert.equal((await cli(["--format", "xml", runId])).code, 2);
  assert.match((parseCompareArgs(["nope"]) as { message: string }).message, /is not a run id/);
  assert.match((parseCompareArgs(["r_a", "--baseline", "r_b"]) as { message: string }).message, /not one of the compared ids/);
  assert.deepEqual(parseCompareArgs(["r_a,queue-96vcpu-single-node", "--baseline=queue-96vcpu-single-node"]), {
    kind: "ok",
    ids: ["r_a", "ref:queue-96vcpu-single-node"],
    baseline: "ref:queue-96vcpu-single-node",
    format: "table",
  });
  assert.equal((await cli(["--help"])).code, 0);
});

test("it names the store it reads, on stderr so that the comparison's output stays as it is", async () => {
  const r = await cli([runId, "--format", "csv"]);
  assert.equal(r.code, 0);
  const host = new URL(ctl.url);
  assert.match(r.err, new RegExp(`^bench compare: reading the control store at DATABASE_URL \\(${host.hostname}:${host.port}${host.pathname}\\)\n$`));
  assert.doesNotMatch(r.out, /control store/);
  // A run not in it: the message says which store was read.
  const missing = await cli(["r_nope"]);
  assert.match(missing.err, /reading the control store at DATABASE_URL/);
  // References alone read no store, and say nothing about one.
  assert.equal((await cli(["queue-4vcpu-single-node"])).err, "");
});

test("outside an app's data folder, with no DATABASE_URL, it says it found no store and how to point at one, and creates nothing", async () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), "pgbb-nostore-"));
  chmodSync(cwd, 0o755); // as root, a folder the postgres user may enter: nothing else stops a store being made there
  try {
    const env = { ...process.env };
    delete env.DATA_DIR;
    delete env.DATABASE_URL;
    const r = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ["--import", path.join(PROJECT_ROOT, "node_modules/tsx/dist/loader.mjs"), path.join(PROJECT_ROOT, "runner/cli.ts"), "compare", runId],
        {
          cwd,
          env,
        },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      child.on("exit", (code) => resolve({ code: code ?? 1, out, err }));
    });
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /no control store found/);
    assert.match(r.err, new RegExp(`${path.join(cwd, ".data").replace(/[.\\]/g, "\\$&")}`), "names the folder it looked in");
    assert.match(r.err, /DATA_DIR=/);
    assert.match(r.err, /DATABASE_URL=/);
    assert.doesNotMatch(r.err, /may have been deleted/);
    assert.equal(r.out, "");
    assert.deepEqual(readdirSync(cwd), [], "nothing created");
    assert.equal(existsSync(path.join(cwd, ".data")), false);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
