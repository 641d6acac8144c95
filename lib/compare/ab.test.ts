// Baseline and modded as one action: the CLI's `--variant both --pairs N` runs N pairs in ABBA order on one
// target and prints each measure with its interval; the published pair is found only for the published shape; compare flags a load-model difference.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, test } from "node:test";
import { PROJECT_ROOT } from "../paths";
import { runWorkload } from "../../runner/engine";
import { abCompareHref, abRows, abText, fmtDelta, publishedPairFor, variantInputs } from "./ab";
import { buildComparison } from "./compare";
import { fromRun } from "./build";
import type { RunSummary } from "../measurement/summary";
import { testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { workloadDefinition } from "../workloads/config";

let target: { url: string; drop: () => Promise<void> };
before(async () => {
  target = await testDatabase("ab_target");
});
after(async () => {
  await target.drop();
});

const cacheConfig = (input: Record<string, unknown>) => WorkloadConfig.parse({ kind: "cache", ...input }) as Record<string, unknown> & { kind: string };

test("the published pair is found for the published shape only, whatever its window", () => {
  const pair = publishedPairFor(cacheConfig({ vus: 200, thinkMs: 111, durationSeconds: 20, warmupSeconds: 3, variant: "modded" }));
  assert.deepEqual(pair && [pair.baseline.id, pair.modded.id], ["yong-cache-200vu-baseline", "yong-cache-200vu-modded"]);
  const stress = publishedPairFor(cacheConfig({ vus: 1000, thinkMs: 0 }));
  assert.deepEqual(stress && [stress.baseline.id, stress.modded.id], ["yong-cache-1000vu-nosleep-baseline", "yong-cache-1000vu-nosleep-modded"]);
  // Another shape: fewer VUs, another mix, a bigger pool, open loop.
  for (const other of [{ vus: 20, thinkMs: 111 }, { vus: 200, thinkMs: 111, readPercent: 90 }, { vus: 200, thinkMs: 111, pool: 20 }, { rate: 1760 }])
    assert.equal(publishedPairFor(cacheConfig(other)), null, JSON.stringify(other));
  const jq = publishedPairFor(WorkloadConfig.parse({ kind: "jobqueue", variant: "baseline", producers: 100, consumers: 50, thinkMs: 140 }) as never);
  assert.deepEqual(jq && [jq.baseline.id, jq.modded.id], ["yong-jobqueue-baseline", "yong-jobqueue-modded"]);
  // Every published config is a valid config of its workload.
  for (const kind of ["cache", "jobqueue"]) for (const p of workloadDefinition(kind)!.published!) assert.ok(WorkloadConfig.safeParse(p.config).success, p.id);
});

test("the published pair's deltas are the article's (our arithmetic of its table)", () => {
  const pair = publishedPairFor(cacheConfig({ vus: 200, thinkMs: 111 }))!;
  const fake = (p50: number, p95: number, mean: number, rate: number) =>
    ({
      operations: {
        total: { count: 1, perSecond: rate, errors: 0, latency: { fromSend: { p50, p95, mean, p90: 0, p99: 0, p999: 0, max: 0, count: 1 } } },
      },
    }) as unknown as RunSummary;
  const rows = abRows(fake(2, 6, 2.5, 1000), fake(1, 3, 2, 1100), pair);
  assert.deepEqual(
    rows.map((r) => [r.label, fmtDelta(r.ours.deltaPct), fmtDelta(r.published!.deltaPct)]),
    [
      ["p50", "−50.0 %", "−8.6 %"],
      ["p95", "−50.0 %", "−12.7 %"],
      ["average", "−20.0 %", "−13.2 %"],
      ["requests/s", "+10.0 %", "+0.3 %"],
    ],
  );
  // The CLI's table: each latency with its unit, rates with thousands separators.
  const table = abText(rows, pair);
  assert.match(table, /^all requests {2}baseline {3}modded {4}delta {2}published baseline {2}published modded {2}published delta\n/);
  assert.match(table, /\np50 {12}2\.00 ms {2}1\.00 ms {2}−50\.0 % {13}1\.87 ms {11}1\.71 ms {11}−8\.6 %\n/);
  assert.match(table, /\nrequests\/s {7}1,000 {4}1,100 {2}\+10\.0 % {15}1,754 {13}1,760 {11}\+0\.3 %$/);
  assert.equal(abCompareHref("r_a", "r_b", pair), "/compare?ids=r_a,r_b,yong-cache-200vu-baseline,yong-cache-200vu-modded&base=r_a");
  assert.deepEqual(variantInputs({ kind: "cache", vus: 3 }).modded, { kind: "cache", vus: 3, variant: "modded" });
});

test("compare shows a request workload's rates and latency, and flags a closed loop against an open one", async () => {
  const run = async (id: string, input: Record<string, unknown>): Promise<ReturnType<typeof fromRun>> => {
    const summary = await runWorkload(WorkloadConfig.parse({ kind: "cache", keys: 200, pool: 2, durationSeconds: 1, warmupSeconds: 0, ...input }), target.url);
    return fromRun({ id, status: "completed", createdAt: new Date(), targetLabel: "embedded default", summary });
  };
  const closed = await run("r_closed", { vus: 2, thinkMs: 2 });
  const open = await run("r_open", { rate: 200, variant: "modded" });
  const cmp = buildComparison([closed, open]);
  const note = cmp.notes.find((n) => n.topic === "load model");
  assert.ok(note, JSON.stringify(cmp.notes));
  assert.equal(note.severity, "warn");
  assert.match(note.text, /^Load models differ: r_closed · .*: closed loop of virtual users; r_open · .*: open loop at 200 requests\/s\./);
  // The rows compare's table and charts read: all requests' rate and latency, measured (the open loop's rate is the
  // summary's own, whatever a busy machine let it reach of the 200/s asked).
  assert.ok((closed.throughput.totalPerSec ?? 0) > 0 && (open.throughput.totalPerSec ?? 0) > 0);
  assert.ok((closed.latency.total?.p50 ?? 0) > 0 && (open.latency.total?.p95 ?? 0) > 0);
  assert.ok(cmp.results.some((r) => r.values.every((v) => v !== null) && /all requests/i.test(r.label)));
  // Same model on both sides: no note.
  assert.equal(
    buildComparison([closed, closed]).notes.find((n) => n.topic === "load model"),
    undefined,
  );
});

const bench = (args: string[]) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "runner/cli.ts", ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: "", TARGET_DATABASE_URL: "" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => resolve({ code: code ?? 1, out, err }));
  });

test("bench --variant both --pairs 2 runs the pairs in ABBA order on one target and prints each measure with its interval", async () => {
  const r = await bench(
    ["cache", "--variant", "both", "--pairs", "2", "--vus", "3", "--think", "2ms", "--keys", "300", "--pool", "2", "-duration", "1s", "--warmup", "0s"].concat(
      "--target",
      target.url,
    ),
  );
  assert.equal(r.code, 0, r.err);
  // Four ordinary runs, in the balanced order: baseline, modded, then modded, baseline.
  const runs = [...r.out.matchAll(/--- pair (\d) of 2: (\w+) ---\ncache on [^\n]*: (\w+), 3 VUs, 2 ms think/g)].map((m) => `${m[1]}${m[2]}=${m[3]}`);
  assert.deepEqual(runs, ["1baseline=baseline", "1modded=modded", "2modded=modded", "2baseline=baseline"], r.out);
  assert.equal(r.out.match(/verification: OK/g)?.length, 4);
  const table = r.out.slice(r.out.indexOf("=== baseline → modded (cache) ==="));
  assert.match(table, /\n2 pairs, order AB BA\nall requests +baseline \(runs' range\) +modded \(runs' range\) +delta +95% CI of pair diff +result\n/);
  // Each measure: pooled figures with the runs' range, the delta, the interval of the pair differences, its finding.
  // Beyond ±50 % a change reads as a factor: "×134 the requests/s" on the page, "×2.2" or "÷2.2" in the CLI.
  const change = "([+−±][\\d.]+ %|[×÷][\\d.,]+( the \\S+)?)";
  const ci = "[+−][\\d.]+ % … [+−][\\d.]+ %";
  const finding = "(within noise|modded lower|modded higher)";
  for (const row of ["p50", "p95", "average"])
    assert.match(table, new RegExp(`\\n${row} +[\\d.,]+ m?s \\([\\d.,]+–[\\d.,]+ m?s\\) +[\\d.,]+ m?s \\([^)]+\\) +${change} +${ci} +${finding}\\n`));
  assert.match(table, new RegExp(`\\nrequests/s +[\\d,]+ \\([\\d,]+–[\\d,]+\\) +[\\d,]+ \\([^)]+\\) +${change} +${ci} +${finding}\\n`));
  assert.match(table, /\n- (Unequal work|Work) \(closed loop\): baseline ran [\d,]+ requests and modded [\d,]+/);
  // Each measure within noise says what would resolve it, estimated from the measured spread.
  for (const line of table.split("\n").filter((l) => l.endsWith(" within noise"))) {
    const name = line.split(/ {2,}/)[0].trim();
    assert.ok(
      table.includes(`\n- ${name}: the interval (`) && new RegExp(`\n- ${name.replace("/", "\\/")}: .* too wide to resolve .*: run .*pairs`).test(table),
      `${name}: ${table}`,
    );
  }
  assert.match(table, /add --save to store the runs and see the A\/B in the app/);
  // --pairs out of range, or without --variant both, is refused before anything runs.
  const bad = await bench(["cache", "--variant", "both", "--pairs", "0", "--target", target.url]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--pairs 0: pairs must be at least 1/);
  const alone = await bench(["cache", "--pairs", "2", "--target", target.url]);
  assert.equal(alone.code, 2);
  assert.match(alone.err, /--pairs applies to an A\/B only: add --variant both/);
  // A workload without variants says so.
  const q = await new Promise<{ code: number; err: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "runner/cli.ts", "queue", "--variant", "both", "--target", target.url], { cwd: PROJECT_ROOT });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => resolve({ code: code ?? 1, err }));
  });
  assert.equal(q.code, 2);
  assert.match(q.err, /-variant applies to the cache and .*workloads only, not queue/);
});
