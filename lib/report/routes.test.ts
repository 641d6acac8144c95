// The export routes over a real control store, called as Next calls them: a run's report and bundle, the bundle
// imported back (its id taken, so renamed), a comparison as HTML and as a bundle, the sets' reports refusing what
// they cannot find. The renderer is provided as npm start's web process provides it (scripts/serve-next.ts).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { GET as ceilingReport } from "../../app/api/ceilings/[id]/report.html/route";
import { GET as compare } from "../../app/api/compare/route";
import { POST as importBundleRoute } from "../../app/api/imports/bundle/route";
import { GET as abReport } from "../../app/api/runs/ab/report.html/route";
import { GET as runBundle } from "../../app/api/runs/[id]/bundle/route";
import { GET as runReport } from "../../app/api/runs/[id]/report.html/route";
import { prisma } from "../db";
import { RunSummary } from "../measurement/summary";
import { createImport } from "../imports/store";
import { PROJECT_ROOT, TOOL_OUTPUT_DIR } from "../paths";
import { appendSample, createRun, finishRun } from "../runs/store";
import { testControlStore } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { provideReportRenderer } from "./renderer";

let db: Awaited<ReturnType<typeof testControlStore>>;
let id = "";
const recorded = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/client-bound-run.json"), "utf8")).run;
const params = (x: string) => ({ params: Promise.resolve({ id: x }) });
const BASE = "http://127.0.0.1:3000";

before(async () => {
  db = await testControlStore("report_routes");
  const run = await createRun({ config: WorkloadConfig.parse(recorded.config), targetLabel: "embedded default", source: "cli", status: "running" });
  for (const s of recorded.samples) await appendSample(run.id, s.seq, s.phase, s.metrics, new Date(s.time));
  await finishRun(run.id, { status: "completed", summary: RunSummary.parse(recorded.summary) });
  id = run.id;
});
after(async () => {
  await prisma().$disconnect();
  await db.drop();
});

test("without npm start's renderer a report route says why; with it, the run's report downloads as one HTML file", async () => {
  const missing = await runReport(new Request(`${BASE}/api/runs/${id}/report.html`), params(id));
  assert.equal(missing.status, 500);
  assert.match((await missing.json()).error, /the report renderer is not loaded in this process/);
  provideReportRenderer(() => import("../../components/report/render"));
  const r = await runReport(new Request(`${BASE}/api/runs/${id}/report.html`), params(id));
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-disposition"), `attachment; filename="pgbb-${id}-report.html"`);
  assert.match(r.headers.get("content-type")!, /^text\/html/);
  const html = await r.text();
  assert.match(html, new RegExp(`data-run-id="${id}"`));
  assert.match(html, /data-testid="report-chart-throughput"/);
  assert.match(html, /npm run bench -- queue/, "the reproducing command, as the run page prints it");
  const none = await runReport(new Request(`${BASE}/api/runs/r_000000000000/report.html`), params("r_000000000000"));
  assert.equal(none.status, 404);
});

test("a run's bundle, posted back: imported under a new id (this store holds its own), the answer says so", async () => {
  const b = await runBundle(new Request(`${BASE}/api/runs/${id}/bundle`), params(id));
  assert.equal(b.status, 200);
  assert.equal(b.headers.get("content-disposition"), `attachment; filename="pgbb-${id}-bundle.json"`);
  const text = await b.text();
  const posted = await importBundleRoute(new Request(`${BASE}/api/imports/bundle`, { method: "POST", body: text }));
  assert.equal(posted.status, 201);
  const body = await posted.json();
  assert.equal(body.runs[0].originalId, id);
  assert.match(body.message, new RegExp(`run ${id} is stored as ${body.runs[0].id}`));
  assert.equal(body.url, `/runs/${body.runs[0].id}`);
  const bad = await importBundleRoute(new Request(`${BASE}/api/imports/bundle`, { method: "POST", body: "<html>" }));
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /not a bundle: it is not JSON/);
});

test("a comparison as HTML and as a bundle (its run and imported output carried, posted back renamed); the sets' reports refuse what they cannot find", async () => {
  const imp = await createImport({ text: readFileSync(path.join(TOOL_OUTPUT_DIR, "queue-4vcpu-preset-30s.txt"), "utf8"), label: "queue 30s" });
  assert.ok(imp.ok);
  const url = `${BASE}/api/compare?ids=${id},${imp.id},ref:queue-4vcpu-single-node&base=${imp.id}&download=1`;
  const html = await compare(new Request(`${url}&format=html`));
  assert.equal(html.status, 200);
  assert.match(html.headers.get("content-disposition")!, /^attachment; filename="comparison-.*\.html"$/);
  const page = await html.text();
  assert.match(page, new RegExp(`data-keys="${id},${imp.id},ref:queue-4vcpu-single-node"`));
  assert.match(page, /data-testid="report-chart-over-time-rates"/, "the run's samples loaded for its over-time chart");
  const bundle = await compare(new Request(`${url}&format=bundle`));
  assert.equal(bundle.status, 200);
  const text = await bundle.text();
  const file = JSON.parse(text);
  assert.deepEqual(
    [file.kind, file.runs.map((r: { id: string }) => r.id), file.imports.map((i: { id: string }) => i.id), file.comparison],
    ["comparison", [id], [imp.id], { ids: [id, imp.id, "ref:queue-4vcpu-single-node"], base: imp.id }],
  );
  // Posted back to this store, which holds both: each renamed, the comparison's link following them.
  const posted = await importBundleRoute(new Request(`${BASE}/api/imports/bundle`, { method: "POST", body: text }));
  assert.equal(posted.status, 201);
  const answer = await posted.json();
  const [run2, imp2] = [answer.runs[0].id, answer.imports[0].id];
  assert.deepEqual([answer.runs[0].originalId, answer.imports[0].originalId], [id, imp.id]);
  assert.match(answer.message, new RegExp(`import ${imp.id} is stored as ${imp2}: this store already held an import ${imp.id}`));
  assert.equal(answer.url, `/compare?ids=${run2},${imp2},ref:queue-4vcpu-single-node&base=${imp2}`);
  assert.equal(
    (await prisma().importedResult.findUniqueOrThrow({ where: { id: imp2 } })).rawText,
    (await prisma().importedResult.findUniqueOrThrow({ where: { id: imp.id } })).rawText,
  );
  const noSearch = await ceilingReport(new Request(`${BASE}/api/ceilings/c_000000000000/report.html`), params("c_000000000000"));
  assert.equal(noSearch.status, 404);
  const badGroup = await abReport(new Request(`${BASE}/api/runs/ab/report.html?group=%20`));
  assert.equal(badGroup.status, 400);
  const noGroup = await abReport(new Request(`${BASE}/api/runs/ab/report.html?group=ab_000000000000`));
  assert.equal(noGroup.status, 404);
  assert.match((await noGroup.json()).error, /A\/B ab_000000000000 does not exist/);
});
