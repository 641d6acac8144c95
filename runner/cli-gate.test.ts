// `npm run bench -- … --gate … --baseline …` as CI runs it: a real process, real runs on a real target. Exit status 99
// and one line per failed gate or regression, naming it as written with its goal or baseline and its value, the
// figure being the summary's own; 0 when all hold; 2, before any run, for a gate or a baseline that cannot be read.
// And --histograms: the window's histograms in HdrHistogram's formats, read back by its own log reader.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { figureText } from "../lib/gate/gate";
import { HistogramLogReader } from "hdr-histogram-js";
import { decodeHistogram, percentilesOf } from "../lib/measurement/histogram";
import { RunSummary } from "../lib/measurement/summary";
import { prisma } from "../lib/db";
import { getRepeatGroup } from "../lib/repeat/store";
import { testControlStore, testDatabase } from "../lib/testing";
import { runCli } from "./cli-testing";

let target: { url: string; drop: () => Promise<void> };
let control: { url: string; drop: () => Promise<void> };
let dir: string;

before(async () => {
  target = await testDatabase("cli_gate_target");
  control = await testControlStore("cli_gate_control");
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-cli-gate-"));
});
after(async () => {
  await prisma().$disconnect();
  await target.drop();
  await control.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** A short paced queue run: its rate is what it was asked, so a rate gate's outcome does not depend on the machine. */
const queueAt = (perSecond: number) => ["queue", "-throttle_writes", String(perSecond), "-duration", "2s", "--warmup", "0s", "--target", target.url];
const bench = (args: string[], env: Record<string, string> = {}) => runCli(args, dir, env);
const summaryIn = (file: string) => RunSummary.parse(JSON.parse(readFileSync(file, "utf8")));

test("gates on any percentile: 99 with a line per failed gate, its goal and the summary's own value; 0 when all hold", async () => {
  const json = path.join(dir, "gated.json");
  const gateJson = path.join(dir, "gates.json");
  const md = path.join(dir, "gates.md");
  const gates = ["e2e.p99<600s", "write.p99.99<600s", "write.perSecond>100000", "e2e.fromSchedule.p99.9<1us"];
  const r = await bench([...queueAt(100), "--json", json, ...gates.flatMap((g) => ["--gate", g]), "--gate-json", gateJson, "--gate-md", md]);
  assert.equal(r.code, 99, r.out + r.err);
  const s = summaryIn(json);
  const rate = s.operations.write.perSecond;
  const p999 = Math.round(decodeHistogram(s.histograms.e2e.fromSchedule!).getValueAtPercentile(99.9)) / 1000;
  assert.equal(p999, s.operations.e2e.latency.fromSchedule!.p999, "the gate's p99.9 is the summary's");
  const failed = r.out.split("\n").filter((l) => l.startsWith("gate failed: "));
  assert.deepEqual(failed, [
    `gate failed: write.perSecond>100000: goal > 100,000 msg/s, value ${figureText(rate, "msg/s")}`,
    `gate failed: e2e.fromSchedule.p99.9<1us: goal < 0.001 ms, value ${figureText(p999, "ms")}`,
  ]);
  assert.match(r.out, /^gate ok: write\.p99\.99<600s: value [\d.]+ ms$/m);
  const outcome = JSON.parse(readFileSync(gateJson, "utf8"));
  assert.equal(outcome.passed, false);
  assert.deepEqual(
    outcome.gates.map((g: { gate: string; passed: boolean }) => [g.gate, g.passed]),
    gates.map((g, i) => [g, i < 2]),
  );
  assert.match(readFileSync(md, "utf8"), /^### ❌ Benchmark gates failed: 2 gates/);

  // --histograms: HdrHistogram's own log reader reads the window's histogram back with the summary's figures.
  const hist = path.join(dir, "histograms");
  const ok = await bench([...queueAt(100), "--gate", "write.perSecond>50", "--gate", "e2e.p99.99<600s", "--json", json, "--histograms", hist]);
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.doesNotMatch(ok.out, /gate failed/);
  const okSummary = summaryIn(json);
  for (const [op, kind] of [
    ["e2e", "fromSchedule"],
    ["write", "fromSend"],
  ] as const) {
    const h = new HistogramLogReader(readFileSync(path.join(hist, `${op}.${kind}.hlog`), "utf8")).nextIntervalHistogram();
    assert.ok(h, `${op}.${kind}.hlog holds an interval`);
    assert.deepEqual(percentilesOf(h), okSummary.operations[op].latency[kind], `${op}.${kind}: the summary's figures`);
    assert.match(
      readFileSync(path.join(hist, `${op}.${kind}.hgrm`), "utf8"),
      new RegExp(`Total count\\s*=\\s*${okSummary.operations[op].latency[kind]!.count}\\]`),
    );
  }
});

test("a baseline, stored or exported: a rate that fell beyond the bound is a regression naming the baseline; within it, 0", async () => {
  // The baseline at 200 msg/s, stored (its id) and written (its file).
  const baseFile = path.join(dir, "base.json");
  const base = await bench([...queueAt(200), "--json", baseFile, "--save"], { DATABASE_URL: control.url });
  assert.equal(base.code, 0, base.out + base.err);
  const baseId = /stored as run (r_[0-9a-f]{12})/.exec(base.out)?.[1];
  assert.ok(baseId, base.out);
  const baseRate = summaryIn(baseFile).operations.write.perSecond;

  // At 100 msg/s the write rate is about half the baseline's (less apart when a busy machine held the baseline below
  // its 200, as a clean-clone CI once did: 146 msg/s): beyond 10 %, by as much as the two figures printed say.
  const slow = await bench([...queueAt(100), "--baseline", baseId, "--gate", "write.perSecond>1"], { DATABASE_URL: control.url });
  assert.equal(slow.code, 99, slow.out + slow.err);
  const line = new RegExp(
    `^regression: write\\.perSecond: baseline ${figureText(baseRate, "msg/s").replace(".", "\\.")} \\(run ${baseId}\\), value ([\\d.]+) msg/s, ([\\d.]+)% worse \\(bound 10%\\)$`,
    "m",
  ).exec(slow.out);
  assert.ok(line, slow.out);
  const worse = Number(line[2]);
  assert.ok(worse > 10, slow.out);
  assert.ok(Math.abs(worse - ((baseRate - Number(line[1])) / baseRate) * 100) < 0.2, `${worse}% from ${baseRate} and ${line[1]}`);
  assert.match(slow.out, /note: the runs' settings differ \(baseline → this run\): throttleWritesPerSec 200 → 100/);

  // The same rate against the exported file, the rate alone compared: within 10 %. Run again (3 times at most) when it
  // exits as a regression: a busy machine can hold one run of a pair back (one beside Playwright was held at 12 of its
  // 200 msg/s, host-bound by its own verdict); the comparison is then checked on a pair the machine let run.
  const sameRun = () => bench([...queueAt(200), "--baseline", baseFile, "--max-regression", "10%", "--gate", "write.perSecond>1"]);
  let same = await sameRun();
  for (let tries = 1; same.code === 99 && tries < 3; tries++) same = await sameRun();
  assert.equal(same.code, 0, same.out + same.err);
  assert.match(same.out, new RegExp(`1 of 1 figures within 10% of file ${baseFile.replace(/[.]/g, "\\.")}$`, "m"));
});

test("a gate or a baseline that cannot be read exits 2 before a run, naming what is wrong", async () => {
  const garbage = path.join(dir, "garbage.json");
  writeFileSync(garbage, JSON.stringify({ hello: "world" }));
  const cases: [string[], RegExp][] = [
    [["--gate", "e2e.p99<50"], /--gate: gate "e2e\.p99<50": give the latency's unit, as 50ms or 50s/],
    [["--gate", "dequeue.p99<5ms"], /--gate dequeue\.p99<5ms: queue has no operation "dequeue": its operations are write, read, claim, e2e/],
    [["--max-regression", "10%"], /--max-regression applies with --baseline/],
    [["--baseline", path.join(dir, "none.json")], /neither a run id \(r_ and 12 hex digits\) nor a file that exists/],
    [["--baseline", garbage], /not a run's summary as `--json FILE` writes it/],
    [["--baseline", "r_0123456789ab"], /no such run in that control store/],
    [["--gate-md", path.join(dir, "x.md")], /--gate-md writes the outcome of --gate or --baseline: add one/],
  ];
  for (const [args, message] of cases) {
    const r = await bench([...queueAt(100), ...args], { DATABASE_URL: control.url });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
    assert.match(r.err, message, args.join(" "));
    assert.doesNotMatch(r.out, /connecting to|schema .* ready/, "refused before any run");
  }
});

test("--repeat N: N runs of one config as a set, each figure with its median's interval, gates on the pooled figures", async () => {
  const json = path.join(dir, "repeats.json");
  const r = await bench([...queueAt(100), "--repeat", "2", "--json", json, "--gate", "write.perSecond>1", "--save"], { DATABASE_URL: control.url });
  assert.equal(r.code, 0, r.out + r.err);
  // Stored as a set whose page the app shows, its runs those the CLI stored.
  const group = /^in the app: \/runs\/repeat\?group=(rp_[0-9a-f]{12})$/m.exec(r.out)?.[1];
  assert.ok(group, r.out);
  const stored = await getRepeatGroup(group, prisma(control.url));
  assert.deepEqual(
    stored?.runIds,
    [...r.out.matchAll(/^stored as run (r_[0-9a-f]{12})$/gm)].map((m) => m[1]),
  );
  assert.match(r.out, /^--- repeat 2 of 2 ---$/m);
  assert.match(r.out, /^=== queue: 2 of 2 repeats completed ===$/m);
  // Each repeat's summary beside the set's file; the pooled rate is all their writes over all their seconds.
  const [a, b] = [summaryIn(path.join(dir, "repeats.1.json")), summaryIn(path.join(dir, "repeats.2.json"))];
  const set = JSON.parse(readFileSync(json, "utf8"));
  const rate = set.repeats.find((row: { metric: string }) => row.metric === "write.perSecond");
  const pooled = (a.operations.write.count + b.operations.write.count) / (a.window.measuredSeconds + b.window.measuredSeconds);
  assert.ok(Math.abs(rate.pooled - pooled) < 1e-9, `${rate.pooled} against ${pooled}`);
  assert.deepEqual(rate.perRun, [a.operations.write.perSecond, b.operations.write.perSecond]);
  assert.equal(rate.interval.confidence, 0.5, "two repeats: [min, max] holds the median half the time, and the set says so");
  assert.match(r.out, /^write\.perSecond +[\d.]+ msg\/s +[\d.]+ msg\/s \([\d.]+–[\d.]+ msg\/s at 50%\)/m);
  assert.match(r.out, new RegExp(`gate ok: write\\.perSecond>1: value ${figureText(pooled, "msg/s").replace(".", "\\.")}$`, "m"));

  for (const [args, message] of [
    [["--repeat", "1"], /--repeat 1: give a whole number of runs from 2 to 20/],
    [["--repeat", "2", "--sync-commit", "off,on"], /--repeat runs one config N times; the ladder repeats its levels with --repeats N/],
  ] as const) {
    const bad = await bench([...queueAt(100), ...args]);
    assert.equal(bad.code, 2, bad.out + bad.err);
    assert.match(bad.err, message);
  }
});
