// `bench export-bundle` and `bench import-bundle` (issue 33) as a user runs them, real processes: a recorded run
// stored in one control store is exported to a file and imported into another, listed there as imported with its
// samples; mistakes (no --out, a missing or foreign file, a data folder without a store) exit with a message.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { prisma } from "../lib/db";
import { RunSummary } from "../lib/measurement/summary";
import { PROJECT_ROOT } from "../lib/paths";
import { appendSample, createRun, finishRun } from "../lib/runs/store";
import { testControlStore } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { runCli } from "./cli-testing";

let a: Awaited<ReturnType<typeof testControlStore>>;
let b: Awaited<ReturnType<typeof testControlStore>>;
let dir: string;
let runId = "";
const recorded = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/runs/pg-boss.json"), "utf8"));

before(async () => {
  a = await testControlStore("bcli_a");
  b = await testControlStore("bcli_b");
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-bundle-cli-"));
  const run = await createRun(
    { config: WorkloadConfig.parse(recorded.run.config), targetLabel: "embedded default", source: "cli", status: "running" },
    prisma(a.url),
  );
  for (const s of recorded.samples) await appendSample(run.id, s.seq, s.phase, s.metrics, new Date(s.time), prisma(a.url));
  await finishRun(run.id, { status: "completed", summary: RunSummary.parse(recorded.run.summary) }, prisma(a.url));
  runId = run.id;
});
after(async () => {
  await prisma(a.url).$disconnect();
  await prisma(b.url).$disconnect();
  await a.drop();
  await b.drop();
  rmSync(dir, { recursive: true, force: true });
});

test("export-bundle from one store, import-bundle into another: the run is there, imported, with its samples", async () => {
  const file = path.join(dir, "run.json");
  const out = await runCli(["export-bundle", runId, "--out", file], dir, { DATABASE_URL: a.url });
  assert.equal(out.code, 0, out.err);
  assert.match(out.out, /bundle of 1 run written to .*run\.json/);
  const into = await runCli(["import-bundle", file], dir, { DATABASE_URL: b.url });
  assert.equal(into.code, 0, into.err);
  assert.match(into.out, new RegExp(`imported 1 run from pg-broker-bench \\S+: ${runId}\\nin the app: /runs/${runId}`));
  const row = await prisma(b.url).run.findUnique({ where: { id: runId } });
  assert.equal(row?.source, "import");
  assert.deepEqual(RunSummary.parse(row?.summary), RunSummary.parse(recorded.run.summary));
  assert.equal(await prisma(b.url).sample.count({ where: { runId } }), recorded.samples.length);
});

test("mistakes: no --out, a missing file, a foreign file, a data folder without a store", async () => {
  const noOut = await runCli(["export-bundle", runId], dir, { DATABASE_URL: a.url });
  assert.equal(noOut.code, 2);
  assert.match(noOut.err, /^bench export-bundle: --out FILE names the bundle's file/);
  const missing = await runCli(["import-bundle", path.join(dir, "nope.json")], dir, { DATABASE_URL: b.url });
  assert.equal(missing.code, 1);
  assert.match(missing.err, /nope\.json does not exist/);
  const foreign = path.join(dir, "foreign.json");
  writeFileSync(foreign, JSON.stringify({ format: "k6-dashboard" }));
  const f = await runCli(["import-bundle", foreign], dir, { DATABASE_URL: b.url });
  assert.equal(f.code, 1);
  assert.match(f.err, /not a pg-broker-bench bundle: its "format" is "k6-dashboard"/);
  const empty = path.join(dir, "empty-data");
  const noStore = await runCli(["import-bundle", foreign, "--data-dir", empty], dir);
  assert.equal(noStore.code, 1);
  assert.match(noStore.err, /no control store in .*empty-data: give the data folder of an app that ran/);
});
