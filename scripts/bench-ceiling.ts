// `npm run bench:ceiling -- [--step 10s] [--warmup 3s] [--slo 'p99<60ms'] [--max-rate N] [--target URL]
// [--only pubsub|queue] [--json DIR]`
// Finds the ceiling this machine's Postgres reaches for the published 4 vCPU pub/sub and queue shapes (their
// exact client configs), each under one latency goal (e2e p99 < 100 ms unless --slo says otherwise),
// and prints each beside the published figure and the reference tool's own figures on this kind of machine,
// for scale only: the reference tool's numbers are unthrottled totals over its duration (or a throttled
// preset), never a ceiling under a goal, and are labelled so.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { goalMetric } from "../lib/ceiling/facts";
import { searchUnit } from "../lib/ceiling/rate";
import { SEARCH_DEFAULTS } from "../lib/ceiling/search";
import { confirmSecondsOf, DEFAULT_START_RATE, MIN_STEP_SECONDS } from "../lib/ceiling/settings";
import { parseSlo, type Slo, sloText } from "../lib/ceiling/slo";
import { parseToolOutput } from "../lib/imports/parse";
import { FIXTURES_DIR, TOOL_OUTPUT_DIR } from "../lib/paths";
import { referenceById } from "../lib/references/references";
import { presetById, WorkloadConfig } from "../lib/workloads/config";
import { resolveTarget } from "../runner/default-target";
import { findCeiling } from "../runner/ceiling/driver";
import { resultLines, stepLine } from "../runner/ceiling/format";
import { answerOfResult, cellIn } from "../lib/ceiling/answer";
import { parseDuration } from "../runner/cli-args";
import { num } from "../runner/format";
import { benchArgs } from "./bench-args";

const SCENARIOS = { pubsub: "pubsub-4vcpu-single-node", queue: "queue-4vcpu-single-node" } as const;
type Kind = keyof typeof SCENARIOS;

/**
 * The default goal, the same for both shapes. Not the published runs' own e2e p99 (60 ms pub/sub, 16 ms queue):
 * on a 2-core machine shared with the runner, the queue's idle e2e p99 (15 readers polling with the reference's
 * back-off) measured 20-33 ms even at 1 msg/s, so that goal finds no ceiling at all. --slo sets any other.
 */
const DEFAULT_SLO = (parseSlo("p99<100ms") as { ok: true; slo: Slo }).slo;

const rate = (n: number) => `${Math.round(n).toLocaleString("en-US")} msg/s`;

/** The reference tool's own figures on this kind of machine, from fixtures/ (fixtures/README.md says whence). */
function referenceToolFigures(kind: Kind): string {
  if (kind === "pubsub") {
    const f = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "kozlovski", "reference-tool-unthrottled.json"), "utf8")).pubsub;
    return `reference tool, unthrottled, ${f.config.durationSeconds} s, ${f.postgres}: ${rate(f.writeMsgPerSec)} written, ${rate(f.readMsgPerSec)} read (totals ÷ duration as it prints them; reads fell behind the ${f.config.consumerGroups}× fan-out)`;
  }
  // Its output does not print the throttle: the capture ran the tool's 4 vCPU queue preset, the same as ours.
  const s = parseToolOutput(readFileSync(path.join(TOOL_OUTPUT_DIR, "queue-4vcpu-preset-30s.txt"), "utf8"));
  const throttle = referenceById(SCENARIOS.queue)!.config.throttleWritesPerSec;
  return `reference tool, its 4 vCPU queue preset (throttled to ${rate(throttle)}), ${s.config.durationSeconds ?? "?"} s, PostgreSQL 15 on 2 cores: ${rate(s.throughput.writeMsgPerSec)} written, ${rate(s.throughput.readMsgPerSec)} read (as it prints them; readers fell behind)`;
}

async function main() {
  const a = benchArgs(process.argv.slice(2), ["step", "warmup", "slo", "max-rate", "start-rate", "target", "only", "json"]);
  const step = parseDuration(a.step ?? "10s");
  const warmup = parseDuration(a.warmup ?? "3s");
  if (step === null || step < MIN_STEP_SECONDS) throw new Error(`--step expects a duration of at least ${MIN_STEP_SECONDS}s such as 10s, got "${a.step}"`);
  if (warmup === null) throw new Error(`--warmup expects a duration such as 3s, got "${a.warmup}"`);
  if (a.only && !(a.only in SCENARIOS)) throw new Error(`--only expects pubsub or queue, got "${a.only}"`);
  const maxRate = a["max-rate"] === undefined ? 1_000_000 : Number(a["max-rate"]);
  const startRate = a["start-rate"] === undefined ? DEFAULT_START_RATE * 5 : Number(a["start-rate"]);
  if (!Number.isInteger(maxRate) || maxRate < 1) throw new Error(`--max-rate expects a whole number of at least 1, got "${a["max-rate"]}"`);
  if (!Number.isInteger(startRate) || startRate < 1 || startRate > maxRate)
    throw new Error(`--start-rate expects a whole number from 1 to --max-rate, got "${a["start-rate"]}"`);
  let givenSlo: Slo | undefined;
  if (a.slo !== undefined) {
    const r = parseSlo(a.slo);
    if (!r.ok) throw new Error(`--slo: ${r.message}`);
    givenSlo = r.slo;
  }
  const kinds = (a.only ? [a.only] : Object.keys(SCENARIOS)) as Kind[];
  const target = await resolveTarget(a.target, (l) => console.log(l));
  const table: string[][] = [["shape", "goal", "ceiling on this machine", "published (AWS, throttled: a rate it ran at)", "for scale only"]];
  let failed = false;
  try {
    for (const kind of kinds) {
      const id = SCENARIOS[kind];
      const preset = presetById(id)!;
      const ref = referenceById(id)!;
      const config = WorkloadConfig.parse({ ...preset.config, warmupSeconds: warmup });
      const metric = goalMetric(kind);
      if (!metric.ok) throw new Error(metric.message);
      const slo = givenSlo ?? DEFAULT_SLO;
      console.log(
        `\n=== ${preset.label}: ${preset.description.replace(/, \d+ s\.$/, "")}; goal ${metric.metric.label} ${sloText(slo)}; steps of ${step} s after ${warmup} s warm-up, on ${target.label} ===`,
      );
      const result = await findCeiling({
        base: config,
        targetUrl: target.url,
        slo,
        metric: metric.metric,
        stepSeconds: step,
        confirmSeconds: confirmSecondsOf({ stepSeconds: step }),
        warmupSeconds: warmup,
        search: { ...SEARCH_DEFAULTS, startRate, maxRate },
        onStep: (s) => console.log(stepLine(s, searchUnit(kind, config))),
      });
      const goalLabel = result.steps[0]?.goal.label ?? metric.metric.label;
      for (const l of resultLines(result, slo, goalLabel, searchUnit(kind, config))) console.log(l);
      failed ||= result.stop === "failed";
      const answer = answerOfResult(result, slo, goalLabel, searchUnit(kind, config));
      const { low, high } = result.bracket;
      table.push([
        `${kind} 4 vCPU (${preset.description.split(",").slice(0, 2).join(",")})`,
        `${result.steps[0]?.goal.label ?? metric.metric.label} ${sloText(slo)}`,
        answer.rate === null ? answer.status : `${cellIn(answer, "msg")}${high === null ? "" : ` (bracket ${num(low!, 0)}–${num(high, 0)})`}, ${answer.status}`,
        `${rate(ref.headline.writeMsgPerSec)} at ${ref.headline.latencyMs.e2e.p99} ms e2e p99`,
        referenceToolFigures(kind),
      ]);
      if (a.json) {
        mkdirSync(a.json, { recursive: true });
        const file = path.resolve(a.json, `ceiling-${id}.json`);
        writeFileSync(file, `${JSON.stringify({ scenario: id, slo: sloText(slo), config, result }, null, 2)}\n`);
        console.log(`search written to ${file}`);
      }
    }
  } finally {
    await target.release();
  }
  console.log("");
  const w = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
  for (const r of table) console.log(r.map((cell, c) => (c < r.length - 1 ? cell.padEnd(w[c]) : cell)).join("   "));
  console.log(
    "\nThe published figures ran on AWS (a c7i server, the client on its own machine) under a throttle, so they are a rate that was met, not a ceiling. The reference tool's figures are its own totals ÷ duration on a machine like this one, shown for scale only: they are not ceilings under a goal.",
  );
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`bench:ceiling: ${(err as Error).message}`);
  process.exit(1);
});
