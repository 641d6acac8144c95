// A bundle carried from one data folder's control store to another's (issue 33): two migrated stores on the real
// embedded Postgres. A recorded run with telemetry (fixtures/runs/graphile-worker.json), stored in the first with its
// samples and a part, is exported, written out as a file's text, and imported into the second: there it is listed
// beside the local runs, marked imported, under its own id, and its report (every figure of its page) is the same.
// A second import finds the id taken and says what it became; foreign, newer and malformed files are refused by
// what is wrong, and a bundle the store refuses halfway leaves nothing behind.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { renderRunReport } from "../../components/report/render";
import { prisma } from "../db";
import { RunSummary } from "../measurement/summary";
import { PROJECT_ROOT } from "../paths";
import { runReportInput } from "../report/load";
import { appendSample, createRun, finishRun, getRun, listRunRows } from "../runs/store";
import { testControlStore } from "../testing";
import { toRunView } from "../runs/view";
import { WorkloadConfig } from "../workloads/config";
import { exportBundle, NotExportable } from "./export";
import { importBundle, importedText } from "./import";
import { BUNDLE_FORMAT } from "./schema";

let a: Awaited<ReturnType<typeof testControlStore>>;
let b: Awaited<ReturnType<typeof testControlStore>>;
let runId = "";
const recorded = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/runs/graphile-worker.json"), "utf8"));

before(async () => {
  a = await testControlStore("bundle_a");
  b = await testControlStore("bundle_b");
  const dbA = prisma(a.url);
  const run = await createRun({ config: WorkloadConfig.parse(recorded.run.config), targetLabel: "embedded default", source: "cli", status: "running" }, dbA);
  for (const s of recorded.samples) await appendSample(run.id, s.seq, s.phase, s.metrics, new Date(s.time), dbA);
  await dbA.runPart.create({ data: { runId: run.id, part: 0, parts: 1, status: "done", host: "bench-host", pid: 4242, startSkewMs: 0.4 } });
  await finishRun(run.id, { status: "completed", summary: RunSummary.parse(recorded.run.summary) }, dbA);
  await dbA.run.update({ where: { id: run.id }, data: { name: "graphile at 200/s", tags: ["pg18", "wal:sync"], notes: "first try" } });
  runId = run.id;
});

after(async () => {
  await prisma(a.url).$disconnect();
  await prisma(b.url).$disconnect();
  await a.drop();
  await b.drop();
});

/** The run's report in one store, as the app renders it, at a fixed export time. */
async function reportIn(url: string, id: string): Promise<string> {
  const row = await getRun(id, prisma(url));
  assert.ok(row, `run ${id} in ${url}`);
  process.env.DATABASE_URL = url; // runReportInput reads samples through lib/db's default client
  const input = await runReportInput(row);
  return renderRunReport({ ...input, run: { ...input.run, source: "-", targetId: null }, command: input.command }, { exportedAt: "2026-11-29T00:00:00.000Z" });
}

const fileOf = async (ids: string[]) => JSON.parse(JSON.stringify(await exportBundle(ids, { kind: "run" }, prisma(a.url))));

test("a run exported from one store and imported into another: listed as imported, same id, same figures", async () => {
  const file = await fileOf([runId]);
  assert.equal(file.format, BUNDLE_FORMAT);
  assert.equal(file.runs[0].samples.length, recorded.samples.length);
  const r = await importBundle(file, prisma(b.url));
  assert.ok(r.ok, r.ok ? "" : r.error);
  assert.deepEqual(r.runs, [{ id: runId, workload: "graphile-worker" }]);
  assert.match(importedText(r), new RegExp(`^imported 1 run from pg-broker-bench \\S+: ${runId}$`));
  // Listed beside the local runs, marked imported, with the same headline.
  const listed = (await listRunRows({}, prisma(b.url))).map((x) => toRunView(x));
  const there = listed.find((x) => x.id === runId)!;
  assert.equal(there.source, "import");
  assert.deepEqual([there.name, there.tags, there.notes], ["graphile at 200/s", ["pg18", "wal:sync"], "first try"], "its name, tags and notes travel");
  const here = toRunView((await listRunRows({}, prisma(a.url))).find((x) => x.id === runId)!);
  assert.deepEqual(there.headline, here.headline);
  assert.ok(there.headline!.rates[0].perSec > 0);
  // Every figure of its page: the reports rendered from each store are the same document.
  const [inA, inB] = [await reportIn(a.url, runId), await reportIn(b.url, runId)];
  assert.match(inB, /data-testid="report-chart-waits"/);
  assert.equal(inB, inA);
  const part = await prisma(b.url).runPart.findMany({ where: { runId } });
  assert.deepEqual(
    part.map((p) => [p.part, p.host, p.pid, p.startSkewMs]),
    [[0, "bench-host", 4242, 0.4]],
  );
});

test("imported again: the id is taken, so the run gets a new one and the answer says which", async () => {
  const r = await importBundle(await fileOf([runId]), prisma(b.url));
  assert.ok(r.ok);
  const moved = r.runs[0];
  assert.equal(moved.originalId, runId);
  assert.notEqual(moved.id, runId);
  assert.match(importedText(r), new RegExp(`run ${runId} is stored as ${moved.id}: this store already held a run ${runId}`));
  assert.equal(await prisma(b.url).sample.count({ where: { runId: moved.id } }), recorded.samples.length);
});

test("a foreign, newer or malformed file is refused by what is wrong, and nothing is stored", async () => {
  const db = prisma(b.url);
  const before = await db.run.count();
  const file = await fileOf([runId]);
  const refused = async (raw: unknown, re: RegExp) => {
    const r = await importBundle(raw, db);
    assert.ok(!r.ok, `refused: ${JSON.stringify(raw).slice(0, 80)}`);
    assert.match(r.error, re);
  };
  await refused([1, 2], /not a bundle: a bundle is a JSON object/);
  await refused({ format: "k6-dashboard", runs: [] }, /not a pg-broker-bench bundle: its "format" is "k6-dashboard"/);
  await refused({ ...file, formatVersion: 2 }, /format version 2, written by a newer version; this instance reads version 1/);
  await refused({ ...file, runs: [] }, /runs holds no run/);
  await refused(
    { ...file, runs: [{ ...file.runs[0], workload: "kafka" }] },
    new RegExp(`runs\\[0\\]\\.workload \\(run "${runId}"\\) workload "kafka" is not one this instance runs`),
  );
  await refused({ ...file, runs: [{ ...file.runs[0], status: "running" }] }, /runs\[0\]\.status .* must be a finished run's status/);
  await refused(
    { ...file, runs: [{ ...file.runs[0], samples: [file.runs[0].samples[1], file.runs[0].samples[0]] }] },
    /samples are not in increasing seq order/,
  );
  await refused({ ...file, runs: [file.runs[0], file.runs[0]] }, /appears twice/);
  // The store refuses the second run's text (a NUL character Postgres cannot hold) after the first was written:
  // the transaction leaves neither.
  const second = { ...file.runs[0], id: "r_second000001", error: "bad\u0000byte" };
  await refused({ ...file, runs: [{ ...file.runs[0], id: "r_first0000001" }, second] }, /the control store refused the bundle, and nothing of it was stored/);
  assert.equal(await db.run.count(), before, "no run stored by a refused bundle");
  assert.equal(await db.run.count({ where: { id: "r_first0000001" } }), 0);
});

test("export refuses what cannot travel: a run that does not exist or has not finished", async () => {
  await assert.rejects(
    exportBundle(["r_nosuchrun000"], { kind: "run" }, prisma(a.url)),
    (e) => e instanceof NotExportable && /r_nosuchrun000 does not exist/.test(e.message),
  );
  const queued = await createRun({ config: WorkloadConfig.parse(recorded.run.config), targetLabel: "x" }, prisma(a.url));
  await assert.rejects(exportBundle([queued.id], { kind: "run" }, prisma(a.url)), /is queued: only a finished run can be exported/);
});
