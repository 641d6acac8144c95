// `npm run bench -- ceiling …`: its flags (each mistake named), and one short real search on the embedded
// Postgres through the bench's own entry point, printing a line per step and the result, and writing --json.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { prisma } from "../../lib/db";
import { testControlStore, testDatabase } from "../../lib/testing";
import { main as benchMain } from "../cli";
import { ceilingCommand } from "../../lib/ceiling/command";
import { CeilingSettings } from "../../lib/ceiling/settings";
import { WorkloadConfig } from "../../lib/workloads/config";
import { parseCeilingArgs } from "./cli";

const parse = (line: string) => parseCeilingArgs(line.split(" ").filter(Boolean));
const problem = (line: string) => {
  const r = parse(line);
  assert.equal(r.ok, false, line);
  return (r as { message: string }).message;
};

describe("bench ceiling: flags", () => {
  test("--name, --tag and --notes are the search's, checked as the bench checks them", () => {
    const r = parse("queue --slo p99<20ms --name WAL-search --tag pg18 --tag wal:on --notes first");
    assert.equal(r.ok, true);
    assert.deepEqual((r as Extract<typeof r, { ok: true }>).args.labels, { name: "WAL-search", notes: "first", tags: ["pg18", "wal:on"] });
    assert.match(problem("queue --slo p99<20ms --tag a!"), /^--tag: tag "a!" has a character other than letters, digits/);
  });
  test("the search's flags beside the workload's", () => {
    const r = parse(
      "queue -writers 3 -readers 5 --warmup 2s --slo p99<20ms --metric write --step 10s --confirm 90s --start-rate 50 --max-rate=5,000 --precision 5% --max-steps 9",
    );
    assert.equal(r.ok, true);
    const a = (r as Extract<typeof r, { ok: true }>).args;
    assert.equal(a.config.kind, "queue");
    assert.equal((a.config as { writers: number }).writers, 3);
    assert.equal(a.config.warmupSeconds, 2);
    assert.deepEqual(a.slo, [{ percentile: "p99", limitMs: 20, inclusive: false }]);
    assert.equal(a.metric.name, "write");
    assert.equal(a.metric.scheduled?.name, "writeScheduled", "the write goal is checked from the schedule");
    assert.equal(a.stepSeconds, 10);
    assert.equal(a.confirmSeconds, 90);
    assert.deepEqual(
      { start: a.search.startRate, max: a.search.maxRate, p: a.search.precision, n: a.search.maxSteps },
      { start: 50, max: 5000, p: 0.05, n: 9 },
    );
    const d = parse("pubsub --slo p99<50ms");
    assert.equal(d.ok, true);
    assert.equal((d as Extract<typeof d, { ok: true }>).args.metric.name, "e2e", "the delivery latency by default");
  });

  test("each mistake names its flag and what to do", () => {
    assert.match(problem("queue"), /--slo is required/);
    assert.match(problem("queue --slo p98<5ms"), /--slo: "p98<5ms": unknown percentile/);
    assert.match(
      problem("queue --slo p99<50ms --metric latency"),
      /--metric latency: the queue workload measures no such latency; use e2e, write, read, claim/,
    );
    assert.match(problem("queue --slo p99<50ms --step 2s"), /at least 3s/);
    assert.match(problem("queue --slo p99<50ms --step soon"), /--step expects a duration/);
    assert.match(problem("queue --slo p99<50ms -duration 60s"), /-duration does not apply to a ceiling search: each step's measured window is --step/);
    assert.match(problem("queue --slo p99<50ms -throttle_writes 500"), /use --start-rate and --max-rate/);
    assert.match(problem("queue --slo p99<50ms --max-rate 0"), /--max-rate expects a whole number of at least 1, got "0"/);
    assert.match(problem("queue --slo p99<50ms --start-rate 900 --max-rate 500"), /--start-rate 900 is above --max-rate 500/);
    assert.match(problem("queue --slo p99<50ms --precision 150%"), /--precision expects a percentage between 0 and 100/);
    assert.match(problem("queue --slo p99<50ms --slo p99<10ms"), /--slo is given twice/);
    assert.match(problem("queue --slo p99<50ms --step"), /--step needs a value/);
    assert.match(problem("queue --slo p99<50ms --confirm 2s"), /--confirm 2s: the confirmation run's window must be at least 3s/);
    assert.match(problem("queue --slo p99<50ms --confirm later"), /--confirm expects a duration/);
    assert.match(problem("queue --slo p99<50ms -writers 0"), /-writers: /, "workload flags are checked as the bench checks them");
  });
});

test("the app's repeating command parses back to the same search", () => {
  const config = WorkloadConfig.parse({ kind: "pubsub", writers: 3, partitions: 2, consumerGroups: 2, throttleWritesPerSec: 900, durationSeconds: 40 });
  const settings = CeilingSettings.parse({
    slo: "p50<10ms,p99<50ms",
    metric: "write",
    stepSeconds: 12,
    confirmSeconds: 50,
    startRate: 300,
    maxRate: 9000,
    precisionPercent: 5,
    maxSteps: 7,
  });
  const cmd = ceilingCommand(config, settings, "postgresql://me:****@db:5432/x");
  assert.match(cmd, /^npm run bench -- ceiling pubsub /);
  assert.doesNotMatch(cmd, /-duration|-throttle_writes/, "the flags a step sets are left out");
  // The shell's view of it: words, single quotes removed.
  const words = cmd
    .replace(/^npm run bench -- ceiling /, "")
    .match(/'[^']*'|\S+/g)!
    .map((w) => w.replace(/^'|'$/g, ""));
  const r = parseCeilingArgs(words);
  assert.equal(r.ok, true, (r as { message?: string }).message);
  const a = (r as Extract<typeof r, { ok: true }>).args;
  assert.deepEqual({ ...a.config, durationSeconds: 0, throttleWritesPerSec: 0 }, { ...config, durationSeconds: 0, throttleWritesPerSec: 0 });
  assert.equal(a.target, "postgresql://me:****@db:5432/x");
  assert.deepEqual(
    {
      slo: a.slo.map((b) => b.percentile),
      metric: a.metric.name,
      step: a.stepSeconds,
      confirm: a.confirmSeconds,
      start: a.search.startRate,
      max: a.search.maxRate,
      p: a.search.precision,
      n: a.search.maxSteps,
    },
    { slo: ["p50", "p99"], metric: "write", step: 12, confirm: 50, start: 300, max: 9000, p: 0.05, n: 7 },
  );
});

describe("bench ceiling: a short search", () => {
  let db: { url: string; drop: () => Promise<void> };
  let dir: string;
  before(async () => {
    db = await testDatabase("ceiling_cli");
    dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-ceiling-"));
  });
  after(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What a short search prints, and the search its --json file keeps. */
  function assertPrintedAndKept(out: string[], file: string) {
    const text = out.join("\n");
    assert.match(text, /goal e2e from schedule p90<1s; steps of 3 s measured after 1 s warm-up; from 10 msg\/s, at most 20 msg\/s.*confirmed by a 3 s run/);
    assert.match(
      text,
      /step 1 +10 msg\/s: achieved [\d.]+ msg\/s, read [\d.]+ msg\/s, e2e from schedule p99 [\d.,]+ m?s, backlog [+-][\d.]+\/s, runner \d+% CPU, event loop p99 [\d.,]+ m?s(, waited to run [\d.]+ %)?(, \d runs merged over [\d.]+ s)? → sustained/,
    );
    assert.match(text, /step 2 +20 msg\/s: .* → sustained/);
    // The result names its outcome: the maximum rate held in a longer run is a confirmed lower bound.
    assert.match(text, /result: completed · confirmed lower bound: at least 20 msg\/s with e2e from schedule p90<1s, confirmed by a [\d.]+ s run/);
    assert.match(text, /stopped because the maximum rate was reached, still sustained \(raise --max-rate to look further\)/);
    // The confirmation: its own line while it runs, then how it confirmed the ceiling, with its numbers.
    assert.match(text, /confirm \([\d.]+ s\) +20 msg\/s: .* → sustained/);
    assert.match(text, /confirmed by a [\d.]+ s run at 20 msg\/s: achieved [\d.]+ msg\/s, e2e from schedule p90 [\d.,]+ m?s \(goal p90<1s\)/);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(doc.kind, "ceiling");
    assert.equal(doc.slo, "p90<1s");
    assert.deepEqual(doc.result.bracket, { low: 20, high: null });
    assert.equal(doc.result.stop, "max-rate");
    assert.equal(doc.result.confirmation, 2);
    assert.equal(doc.result.outcome, "confirmed-lower-bound");
    assert.deepEqual(
      doc.steps.map((s: { rate: number; sustained: boolean; confirmation?: boolean }) => [s.rate, s.sustained, s.confirmation ?? false]),
      [
        [10, true, false],
        [20, true, false],
        [20, true, true],
      ],
    );
  }

  // One search serves both: what the CLI prints and keeps in --json, and what --save stores as it runs.
  test("prints each step and the result; --json keeps the search; --save stores the search and each step as it runs, as the app's runner does", async () => {
    const ctl = await testControlStore("ceiling_cli_ctl");
    process.env.DATABASE_URL = ctl.url;
    try {
      const out: string[] = [];
      const file = path.join(dir, "ceiling.json");
      const html = path.join(dir, "ceiling.html");
      // Rates this low are sustained anywhere: the search grows 10 → 20 and stops at the maximum.
      const code = await benchMain(
        [
          "ceiling",
          "queue",
          "-writers",
          "1",
          "-readers",
          "1",
          "--warmup",
          "1s",
          "--target",
          db.url,
          "--slo",
          "p90<1s",
          "--step",
          "3s",
          "--confirm",
          "3s",
          "--start-rate",
          "10",
          "--max-rate",
          "20",
          "--json",
          file,
          "--html",
          html,
          "--save",
        ],
        { out: (l) => out.push(l), err: (l) => out.push(l) },
      );
      assert.equal(code, 0, out.join("\n"));
      assertPrintedAndKept(out, file);
      const id = /saving as ceiling search (c_[0-9a-f]{12})/.exec(out.join("\n"))?.[1];
      assert.ok(id, out.join("\n"));
      const row = await prisma(ctl.url).ceilingSearch.findUniqueOrThrow({ where: { id }, include: { steps: { orderBy: { index: "asc" } } } });
      assert.equal(row.status, "completed");
      assert.equal(row.source, "cli");
      assert.deepEqual(
        row.steps.map((x) => x.rate),
        [10, 20, 20],
      );
      assert.equal((row.result as { confirmation?: number }).confirmation, 2, "the stored outcome names its confirmation run");
      assert.equal((row.settings as { slo: string }).slo, "p90<1s");
      assert.equal(await prisma(ctl.url).runner.count(), 0, "its runner row is gone once it ends");
      // --html: the search's report, as the app exports it: its id, a point a step on its curve, its steps' table.
      const report = readFileSync(html, "utf8");
      assert.match(report, new RegExp(`data-ceiling-id="${id}"`));
      const curve = report.match(/data-testid="report-chart-ceiling-rate"(.*?)<\/figure>/s)?.[1] ?? "";
      assert.equal((curve.match(/class="dot-point"/g) ?? []).length, 3);
      assert.match(report, /npm run bench -- ceiling queue/);
      assert.doesNotMatch(report, /<script|https?:\/\//);
    } finally {
      delete process.env.DATABASE_URL;
      await prisma(ctl.url).$disconnect();
      await ctl.drop();
    }
  });
});
