// `npm run bench:reference -- [--duration 60s] [--warmup 5s] [--target URL] [--only pubsub|queue] [--json DIR]`
// Runs the published 4 vCPU single-node scenarios of both workloads (their exact client configs, shorter)
// against the embedded target or --target, and prints our numbers beside the published ones, the runner's
// CPU, and whether the readers kept up.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { referenceById } from "../lib/references/references";
import type { SampleMetrics } from "../lib/measurement/sample";
import type { RunSummary } from "../lib/measurement/summary";
import { presetById, WorkloadConfig } from "../lib/workloads/config";
import { groupsOf, latencyOf, measureOf, readsPerGroup, throughputOf } from "../lib/measurement/operations";
import { parseDuration } from "../runner/cli-args";
import { resolveTarget } from "../runner/default-target";
import { runWorkload } from "../runner/engine";
import { liveLine, msText, num } from "../runner/format";
import { benchArgs } from "./bench-args";
import { countWords } from "../lib/words";
import { RUNNER_ROLE_WORDS, runnerLoadOf } from "../lib/measurement/headline";

const SCENARIOS = { pubsub: "pubsub-4vcpu-single-node", queue: "queue-4vcpu-single-node" } as const;

const args = (argv: string[]) => benchArgs(argv, ["duration", "warmup", "target", "only", "json"]);

/** Backlog at the start and end of the measured window, and its growth per second (flat ≈ 0). */
function backlogTrend(samples: SampleMetrics[]) {
  if (!samples.length) return { first: 0, last: 0, perSec: 0, max: 0 };
  const q = Math.max(1, Math.floor(samples.length / 4));
  const avg = (xs: SampleMetrics[]) => xs.reduce((a, s) => a + (measureOf(s, "backlog") ?? 0), 0) / xs.length;
  const first = avg(samples.slice(0, q));
  const last = avg(samples.slice(-q));
  const span = samples.slice(q / 2, samples.length - q / 2).reduce((a, s) => a + s.intervalSec, 0) || 1;
  return { first, last, perSec: (last - first) / span, max: Math.max(...samples.map((s) => measureOf(s, "backlog") ?? 0)) };
}

const rate = (s: RunSummary, op: string) => throughputOf(s, op) ?? { count: 0, perSecond: 0, mibPerSec: 0, errors: 0 };

function report(summary: RunSummary, samples: SampleMetrics[], scenarioId: string) {
  const ref = referenceById(scenarioId);
  const h = ref?.headline;
  const rows: [string, string, string, string][] = [["", "ours", "published", "ours / published"]];
  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? `${num(a / b, 2)}×` : "");
  const add = (label: string, ours: number | undefined, pub: number | undefined, fmt: (v: number) => string) =>
    rows.push([label, ours === undefined ? "–" : fmt(ours), pub === undefined ? "–" : fmt(pub), ratio(ours, pub)]);
  add("write msg/s", rate(summary, "write").perSecond, h?.writeMsgPerSec, (v) => num(v, 0));
  add("read msg/s", rate(summary, "read").perSecond, h?.readMsgPerSec, (v) => num(v, 0));
  add("write MiB/s", rate(summary, "write").mibPerSec, h?.writeMiBPerSec, (v) => num(v, 2));
  add("read MiB/s", rate(summary, "read").mibPerSec, h?.readMiBPerSec, (v) => num(v, 2));
  for (const m of ["write", "read", "e2e"] as const)
    for (const p of ["p50", "p95", "p99"] as const) add(`${m} latency ${p} (ms)`, latencyOf(summary, m)?.[p], h?.latencyMs[m][p], msText);
  for (const p of ["p50", "p99"] as const) add(`claim latency ${p} (ms)`, latencyOf(summary, "claim")?.[p], undefined, msText);
  const scheduled = latencyOf(summary, "writeScheduled");
  if (scheduled) for (const p of ["p50", "p99"] as const) add(`write from schedule ${p} (ms)`, scheduled[p], undefined, msText);
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(rows.map((r) => r.map((cell, c) => (c ? cell.padStart(w[c]) : cell.padEnd(w[c]))).join("   ")).join("\n"));

  // Each message is read once per consumer group where reads are per group (pub/sub fan-out).
  const fanout = readsPerGroup(summary.config.kind) ? groupsOf(summary).length : 1;
  const writes = rate(summary, "write");
  const reads = rate(summary, "read");
  const keep = writes.count ? reads.count / (fanout * writes.count) : 0;
  const trend = backlogTrend(samples);
  const cpuPct = (100 * summary.manifest.runnerCpuSeconds) / summary.window.measuredSeconds;
  console.log("");
  console.log(
    `reads kept up: reads = ${num(reads.count / Math.max(writes.count, 1), 2)} × writes (${fanout} expected) → ${num(100 * keep, 1)}%; ` +
      `backlog ${num(trend.first, 0)} → ${num(trend.last, 0)} (${trend.perSec >= 0 ? "+" : ""}${num(trend.perSec, 0)}/s, max ${num(trend.max, 0)}) ` +
      // Kept up: the backlog does not grow (within 1% of the write rate per second) and reads are within 2% of
      // fan-out × writes (the difference is what was in flight at the window's two edges).
      (keep > 0.98 && trend.perSec < Math.max(50, 0.01 * writes.perSecond) ? "→ YES, flat" : "→ NO, readers fall behind"),
  );
  console.log(
    `runner CPU: ${num(cpuPct, 1)}% of one core (${num(summary.manifest.runnerCpuSeconds, 2)} s over ${num(summary.window.measuredSeconds, 1)} s), ${num(summary.manifest.runnerCpuMsPer1000?.ms ?? 0, 2)} ms per 1,000 messages → ${cpuPct < 50 ? "under" : "OVER"} half a core`,
  );
  const load = summary.runnerLoad;
  if (load)
    console.log(
      `runner event loop: delay p99 ${msText(load.loopDelayMs.p99)} ms, max ${msText(load.loopDelayMs.max)} ms, ${msText(load.exposedDelayMs)} ms or more over 1% of the time; busiest second ${num(100 * load.maxCpuCores, 1)}% of one core → ${RUNNER_ROLE_WORDS[runnerLoadOf(summary).role]}`,
    );
  console.log(`verification: ${summary.verification.ok ? "OK" : `FAILED: ${summary.verification.problems.slice(0, 3).join("; ")}`}`);
  if (ref)
    console.log(
      `published: ${ref.server.instance} (${ref.server.vcpu} vCPU) server, client on a separate ${ref.client.instance}, ${ref.config.durationSeconds} s × ${countWords(ref.config.runs, "run")} averaged; ` +
        `ours: runner and Postgres ${summary.manifest.postgresVersion} share this ${summary.manifest.runnerCores}-core ${summary.manifest.runnerCpuModel}.`,
    );
}

async function main() {
  const a = args(process.argv.slice(2));
  const duration = parseDuration(a.duration ?? "60s");
  const warmup = parseDuration(a.warmup ?? "5s");
  if (duration === null || duration < 1) throw new Error(`--duration expects a duration such as 60s or 2m, got "${a.duration}"`);
  if (warmup === null) throw new Error(`--warmup expects a duration such as 5s, got "${a.warmup}"`);
  if (a.only && !(a.only in SCENARIOS)) throw new Error(`--only expects pubsub or queue, got "${a.only}"`);
  const kinds = (a.only ? [a.only] : Object.keys(SCENARIOS)) as (keyof typeof SCENARIOS)[];
  const target = await resolveTarget(a.target, (l) => console.log(l));
  let failed = false;
  try {
    for (const kind of kinds) {
      const id = SCENARIOS[kind];
      const preset = presetById(id)!;
      const config = WorkloadConfig.parse({ ...preset.config, durationSeconds: duration, warmupSeconds: warmup });
      console.log(
        `\n=== ${preset.label}: ${preset.description.replace(/, \d+ s\.$/, "")}, ${duration} s measured after ${warmup} s warm-up, on ${target.label} ===`,
      );
      const samples: SampleMetrics[] = [];
      const summary = await runWorkload(config, target.url, {
        onReport: (r) => console.log(liveLine(r, config.kind)),
        onSample: (s) => void (s.phase === "measuring" && samples.push(s.metrics)),
        log: (l) => console.log(`  ${l}`),
      });
      console.log("");
      report(summary, samples, id);
      failed ||= !summary.verification.ok;
      if (a.json) {
        mkdirSync(a.json, { recursive: true });
        const file = path.resolve(a.json, `${id}.json`);
        writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
        console.log(`summary written to ${file}`);
      }
    }
  } finally {
    await target.release();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`bench:reference: ${(err as Error).message}`);
  process.exit(1);
});
