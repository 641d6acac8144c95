// `npm run bench -- … --html FILE` (issue 33): the run just made written as one self-contained report, saved or not,
// with the figures its --json summary holds; a file that cannot be written is refused before any run, naming why.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { prisma } from "../lib/db";
import { throughputOf } from "../lib/measurement/operations";
import { RunSummary } from "../lib/measurement/summary";
import { fmtRate } from "../lib/runs/format";
import { testControlStore, testDatabase } from "../lib/testing";
import { runCli } from "./cli-testing";

let target: { url: string; drop: () => Promise<void> };
let control: { url: string; drop: () => Promise<void> };
let dir: string;

before(async () => {
  target = await testDatabase("html_target");
  control = await testControlStore("html_control");
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-html-"));
});
after(async () => {
  await prisma().$disconnect();
  await target.drop();
  await control.drop();
  rmSync(dir, { recursive: true, force: true });
});

const RUN = ["queue", "-writers", "1", "-readers", "1", "-duration", "2s", "--warmup", "1s"];

test("--html to a folder that does not exist, or to a folder, is refused before the run, naming why", async () => {
  const missing = await runCli([...RUN, "--target", target.url, "--html", path.join(dir, "nope", "r.html")], dir);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^bench: --html .*r\.html: the folder .*nope does not exist; create it or give a file in an existing folder/);
  assert.doesNotMatch(missing.out, /queue on /, "no run started");
  const folder = await runCli([...RUN, "--target", target.url, "--html", dir], dir);
  assert.equal(folder.code, 2);
  assert.match(folder.err, /is a folder; give a file name, such as .*report\.html/);
  const empty = await runCli([...RUN, "--html", ""], dir);
  assert.equal(empty.code, 2);
  assert.match(empty.err, /^bench: --html is empty/);
  if (process.getuid?.() !== 0) {
    const ro = path.join(dir, "ro");
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    const r = await runCli([...RUN, "--target", target.url, "--html", path.join(ro, "r.html")], dir);
    assert.equal(r.code, 2);
    assert.match(r.err, /is not writable by this user/);
  }
});

test("a run with --html --json --save: the report holds its charts, the summary's figures and the stored run's id", async () => {
  const html = path.join(dir, "run.html");
  const json = path.join(dir, "run.json");
  const r = await runCli([...RUN, "--target", target.url, "--html", html, "--json", json, "--save"], dir, { DATABASE_URL: control.url });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`report written to ${html.replace(/[.]/g, "\\.")}`));
  const id = r.out.match(/stored as run (\S+)/)![1];
  const text = readFileSync(html, "utf8");
  const summary = RunSummary.parse(JSON.parse(readFileSync(json, "utf8")));
  assert.match(text, new RegExp(`data-run-id="${id}"`));
  assert.match(text, /data-testid="report-chart-throughput"/);
  assert.match(text, /data-testid="report-chart-latency-e2e"/);
  const kpi = text.match(/data-testid="kpi-write">([^<]+)</)![1];
  assert.equal(kpi, fmtRate(throughputOf(summary, "write")?.perSecond));
  assert.match(text, /npm run bench -- queue -writers 1 -readers 1/);
  assert.doesNotMatch(text, /<script/i);
  assert.doesNotMatch(text, /https?:\/\//, "no URL (the target's masked URL is postgresql://, which loads nothing)");
  // Unsaved: the same report, said to be not saved.
  const unsaved = path.join(dir, "unsaved.html");
  const u = await runCli([...RUN, "--target", target.url, "--html", unsaved], dir);
  assert.equal(u.code, 0, u.err);
  assert.ok(existsSync(unsaved));
  assert.match(readFileSync(unsaved, "utf8"), /data-run-id="not saved"/);
});

test("an A/B with --html: the set's report, its pairs and each measure with its interval; a ladder's is refused first", async () => {
  const html = path.join(dir, "ab.html");
  const args = [
    "cache",
    "--variant",
    "both",
    "--pairs",
    "1",
    "--vus",
    "2",
    "--think",
    "2ms",
    "--keys",
    "100",
    "--pool",
    "2",
    "-duration",
    "1s",
    "--warmup",
    "0s",
  ];
  const r = await runCli([...args, "--target", target.url, "--html", html], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /report of the A\/B written to .*ab\.html/);
  const text = readFileSync(html, "utf8");
  assert.match(text, /data-testid="ab-report"/);
  assert.match(text, /data-testid="ab-order"/);
  // Each measure's pooled figures as the CLI printed them (the same words: lib/compare/ab-stats.ts fmtPooled).
  const lines = r.out.split("\n");
  const set = lines.findIndex((l) => l.startsWith("=== baseline → modded"));
  const head = lines.findIndex((l, i) => i > set && l.startsWith("all requests"));
  assert.ok(head >= 0, r.out);
  const end = lines.findIndex((l, i) => i > head && !/\S {2,}\S/.test(l));
  const rows = lines.slice(head + 1, end);
  assert.ok(rows.length >= 2, `measures printed: ${rows.join(" | ")}`);
  for (const row of rows) {
    const [label, baseline, modded] = row.trim().split(/\s{2,}/);
    assert.ok(
      text.includes(`<td class="num">${baseline}</td>`) && text.includes(`<td class="num">${modded}</td>`),
      `${label}: ${baseline} → ${modded} in the report`,
    );
  }
  assert.doesNotMatch(text, /<script|https?:\/\//);
  const ladder = await runCli(["queue", "--sync-commit", "on,off", "--target", target.url, "--html", path.join(dir, "l.html")], dir);
  assert.equal(ladder.code, 2);
  assert.match(ladder.err, /for the synchronous commit ladder, add --save and export each run from the app/);
});
