// `npm run bench:dbos -- [--target URL] [--duration 10s] [--only inserts|workflows|queued-workflows]
//                        [--connections 32] [--start 250]`
// DBOS's question on this machine: the highest rate at which each DBOS workload keeps up. Each workload runs
// at rising target rates (doubling from --start, then halving the step between the last rate that kept up and
// the first that did not, twice) for a short window; a rate keeps up when the drain after the timetable ends
// is near 0 (at most 1 % of the window or 0.2 s, the study's "> 0 means the database could not keep up"), nothing
// failed and verification passed. Prints that rate beside DBOS's published figure and the hardware behind each.
// Without --target it starts a private embedded Postgres (default settings) in a temporary folder, removed
// afterwards; it then shares this machine's cores with the runner, which the output says.
import os from "node:os";
import type { RunSummary } from "../lib/measurement/summary";
import { WorkloadConfig, workloadDefinition } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload } from "../runner/engine";
import { num } from "../runner/format";
import { benchArgs } from "./bench-args";
import { benchTarget } from "./bench-target";
import { latencyOf, throughputOf } from "../lib/measurement/operations";

const KINDS = ["inserts", "workflows", "queued-workflows"] as const;
/** A drain at most this share of the window counts as keeping up (the reference's default for "sustained"), */
const DRAIN_SHARE = 0.01;
/** or at most this long: a short window's 1 % is less than the last batch's own latency, which is no backlog. */
const DRAIN_FLOOR_SECONDS = 0.2;
const drainLimit = (window: number) => Math.max(DRAIN_SHARE * window, DRAIN_FLOOR_SECONDS);
const WARMUP_SECONDS = 2;

/** The operation whose rate is the workload's headline (what the published figure counts), and the latency shown. */
const HEADLINE: Record<string, { rate: string; latency: string }> = {
  inserts: { rate: "write", latency: "write" },
  workflows: { rate: "workflow", latency: "workflow" },
  // Completed workflows; their latency from enqueue to completion.
  "queued-workflows": { rate: "read", latency: "e2e" },
};

/** The config of one trial. Queued workflows: the enqueuers' target rate, its own clients at their defaults. */
const trialConfig = (kind: string, rate: number, seconds: number, connections: number) =>
  kind === "queued-workflows"
    ? { kind, throttleWritesPerSec: rate, durationSeconds: seconds, warmupSeconds: WARMUP_SECONDS }
    : { kind, rate, connections, durationSeconds: seconds, warmupSeconds: WARMUP_SECONDS };

/**
 * How long a drain may take and still count as keeping up: a queued workflow waits for its worker's next poll
 * by design (the library's 1 s × up to 1.05), so its drain is that much longer with no backlog at all.
 */
const drainAllowed = (config: WorkloadConfig, window: number) => drainLimit(window) + (config.kind === "queued-workflows" ? (config.pollMs * 1.05) / 1000 : 0);

interface Trial {
  rate: number;
  achieved: number;
  drainSeconds: number;
  errors: number;
  ok: boolean;
  keptUp: boolean;
  p50: number | null;
  p99: number | null;
  summary: RunSummary;
}

const headlineRate = (kind: string, s: RunSummary) => {
  const op = HEADLINE[kind].rate;
  return throughputOf(s, op);
};

async function trial(kind: string, rate: number, seconds: number, connections: number, url: string): Promise<Trial> {
  const config = WorkloadConfig.parse(trialConfig(kind, rate, seconds, connections));
  const summary = await runWorkload(config, url, { log: () => undefined });
  const op = headlineRate(kind, summary);
  const drainSeconds = summary.totals?.measures.drainSeconds ?? Number.POSITIVE_INFINITY;
  const errors = (op?.errors ?? 0) + (throughputOf(summary, "write")?.errors ?? 0);
  const lat = latencyOf(summary, HEADLINE[kind].latency);
  const keptUp = summary.verification.ok && errors === 0 && drainSeconds <= drainAllowed(config, summary.window.measuredSeconds);
  return {
    rate,
    achieved: op?.perSecond ?? 0,
    drainSeconds,
    errors,
    ok: summary.verification.ok,
    keptUp,
    p50: lat?.p50 ?? null,
    p99: lat?.p99 ?? null,
    summary,
  };
}

function line(t: Trial, unit: string) {
  const ms = (x: number | null) => (x === null ? "-" : num(x, 2));
  console.log(
    `  ${t.rate.toLocaleString("en-US").padStart(9)} ${unit}/s → ${num(t.achieved, 0).padStart(9)}/s  drain ${num(t.drainSeconds, 3).padStart(7)} s  p50 ${ms(t.p50).padStart(7)} ms  p99 ${ms(t.p99).padStart(8)} ms  errors ${t.errors}  ${t.keptUp ? "kept up" : t.ok ? "fell behind" : `verification FAILED: ${t.summary.verification.problems[0]}`}`,
  );
}

async function main() {
  const a = benchArgs(process.argv.slice(2), ["target", "duration", "only", "connections", "start"]);
  const seconds = a.duration ? parseDuration(a.duration) : 10;
  if (seconds === null || seconds < 1) throw new Error(`--duration ${a.duration}: give 10s, 1m or seconds`);
  const connections = Number(a.connections ?? 32);
  const start = Number(a.start ?? 250);
  if (!Number.isInteger(connections) || connections < 1) throw new Error(`--connections ${a.connections}: give a whole number of connections, at least 1`);
  if (!Number.isInteger(start) || start < 1) throw new Error(`--start ${a.start}: give the first target rate per second, a whole number`);
  if (a.only && !(KINDS as readonly string[]).includes(a.only)) throw new Error(`--only ${a.only}: use ${KINDS.join(", ")}`);
  const kinds = KINDS.filter((k) => (!a.only || a.only === k) && workloadDefinition(k));
  if (!kinds.length) throw new Error(`workload ${a.only} is not registered in this version`);

  const target = await benchTarget(a.target, "dbos");
  const cpus = os.cpus();
  const here = `${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${num(os.totalmem() / 2 ** 30, 1)} GiB`;
  console.log(`target: ${target.label}`);
  console.log(`this machine: ${here}${target.embedded ? "; the runner and Postgres share these cores" : ""}`);
  console.log(
    `each rate: ${WARMUP_SECONDS} s warm-up + ${seconds} s measured, ${connections} connections; kept up = drain ≤ ${num(drainLimit(seconds), 2)} s (${DRAIN_SHARE * 100} % of the window, at least ${DRAIN_FLOOR_SECONDS} s), no errors, verified`,
  );
  let failed = false;
  try {
    for (const kind of kinds) {
      const def = workloadDefinition(kind)!;
      const unit = kind === "inserts" ? "inserts" : "workflows";
      console.log(`\n=== ${kind} ===`);
      if (kind === "queued-workflows")
        console.log("  (kept up allows one more polling interval, 1.05 s: after the last enqueue a workflow waits for its worker's next poll)");
      const trials: Trial[] = [];
      const run = async (rate: number) => {
        const t = await trial(kind, rate, seconds, connections, target.url);
        line(t, unit);
        trials.push(t);
        failed ||= !t.ok;
        return t;
      };
      // Doubling until a rate does not keep up, then two halvings of the gap.
      let good: number | null = null;
      let bad: number | null = null;
      for (let rate = start; bad === null && rate <= 10_000_000; rate *= 2) {
        if ((await run(rate)).keptUp) good = rate;
        else bad = rate;
      }
      for (let i = 0; i < 2 && good !== null && bad !== null && bad - good > 1; i++) {
        const mid = Math.round((good + bad) / 2);
        if ((await run(mid)).keptUp) good = mid;
        else bad = mid;
      }
      const best = trials.filter((t) => t.keptUp).sort((x, y) => y.rate - x.rate)[0];
      console.log(
        best
          ? `highest rate kept up here: ${best.rate.toLocaleString("en-US")} ${unit}/s (measured ${num(best.achieved, 0)}/s, drain ${num(best.drainSeconds, 3)} s)`
          : `no rate kept up here, not even ${start.toLocaleString("en-US")} ${unit}/s: try --start lower`,
      );
      for (const p of def.published ?? []) {
        const figure = Object.values(p.rates ?? {})[0];
        if (Number(p.config.queues ?? 1) > 1) {
          // These trials use one queue: the figure over many queues is the queues sweep's to compare with.
          console.log(
            `published (DBOS): ${figure?.toLocaleString("en-US") ?? "?"} ${unit}/s over many queues: compare with the sweep, npm run bench -- queued-workflows --queues 1,2,4,8,16,32`,
          );
          continue;
        }
        console.log(`published (DBOS): ${figure?.toLocaleString("en-US") ?? "?"} ${unit}/s: ${p.title}`);
        console.log(`  on ${p.server}`);
        if (best && figure)
          console.log(
            `  here ${num((100 * best.rate) / figure, 1)} % of it, on ${here} instead${target.embedded ? " (one machine for load and database)" : ""}`,
          );
      }
    }
  } finally {
    await target.release();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`bench:dbos: ${(err as Error).message}`);
  process.exit(2);
});
