// `npm run bench:processes -- [--duration 10s] [--warmup 2s] [--target URL] [--order ABBA]`
// What more runner processes buy (issue #23): one configuration the runner cannot carry in one process here, run
// with 1 process (A) and with 2 (B) in one invocation, alternating A B B A so the machine's noise hits both, and
// printed per run: the achieved rates, e2e p95/p99, the runner's CPU per process and per 1,000 messages, each
// part's start skew, clock offset, event-loop delay and wait for a CPU, and Postgres's CPU.
//
// The configuration: pub/sub unthrottled, 4 writers on 4 partitions (batches of 100), 5 consumer groups reading
// (batches of 100), the published 96 vCPU scenario's fan-out. Why this one: reads are the runner's heaviest work
// (every message is read, decoded and timed 5 times), and unthrottled there is no rate for it to meet, so one
// process runs until its event loop is the limit. Measured here (2 cores shared with Postgres and other work): one
// process's loop was 95-97% busy while it waited 600-700 ms/s for a CPU (52k-116k reads/s as that work varied),
// while its connections were active on the server 6-7% of the time: the runner set the pace. With 2 processes
// the runner's work can spread over both cores, but Postgres and the machine's other work share them: where that
// hides the gain in rates, the runner-side figures (CPU per 1,000 messages, each part's CPU and loop delay) and
// the e2e latencies show what the second process changed.
import { WorkloadConfig } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload } from "../runner/engine";
import { num } from "../runner/format";
import { benchArgs } from "./bench-args";
import { benchTarget, figuresOf, meanOf, processLines, type RunFigures, runLine } from "./processes-figures";

const SHAPE = { kind: "pubsub", writers: 4, partitions: 4, consumerGroups: 5, writeBatch: 100, readBatch: 100, throttleWritesPerSec: 0 } as const;
const PROCESSES = { A: 1, B: 2 } as const;

async function main() {
  const a = benchArgs(process.argv.slice(2), ["duration", "warmup", "target", "order"]);
  const duration = parseDuration(a.duration ?? "10s");
  const warmup = parseDuration(a.warmup ?? "2s");
  if (duration === null || duration < 1) throw new Error(`--duration expects a duration such as 10s or 1m, got "${a.duration}"`);
  if (warmup === null) throw new Error(`--warmup expects a duration such as 2s, got "${a.warmup}"`);
  const order = (a.order ?? "ABBA").toUpperCase();
  if (!/^[AB]+$/.test(order) || !order.includes("A") || !order.includes("B"))
    throw new Error(`--order expects a sequence of A (1 process) and B (2 processes) with both, such as ABBA, got "${a.order}"`);
  const target = await benchTarget(a.target);
  console.log(
    `pub/sub unthrottled, ${SHAPE.writers} writers on ${SHAPE.partitions} partitions, ${SHAPE.consumerGroups} consumer groups, batches of ${SHAPE.writeBatch}; ` +
      `${duration} s measured after ${warmup} s warm-up, order ${order} (A = 1 process, B = 2), on ${target.label}`,
  );
  const runs: Record<"A" | "B", RunFigures[]> = { A: [], B: [] };
  let failed = false;
  try {
    for (const [i, label] of [...order].entries()) {
      const ab = label as "A" | "B";
      const config = WorkloadConfig.parse({ ...SHAPE, durationSeconds: duration, warmupSeconds: warmup, processes: PROCESSES[ab] });
      const summary = await runWorkload(config, target.url, { drainSeconds: 10 });
      const f = figuresOf(summary);
      failed ||= !f.verified;
      runs[ab].push(f);
      console.log(runLine(`run ${i + 1} (${ab})`, f));
      for (const line of processLines(f)) console.log(line);
      if (f.verdict) console.log(`    verdict: ${f.verdict}`);
    }
  } finally {
    await target.release();
  }
  summarize(runs);
  process.exit(failed ? 1 : 0);
}

/** The means of A and B, and B against A. */
function summarize(runs: Record<"A" | "B", RunFigures[]>) {
  const row = (what: string, pick: (f: RunFigures) => number | undefined, digits = 0) => {
    const [a, b] = [meanOf(runs.A, pick), meanOf(runs.B, pick)];
    const ratio = a !== undefined && b !== undefined && a > 0 ? `${num(b / a, 2)}×` : "–";
    const show = (v: number | undefined) => (v === undefined ? "–" : num(v, digits));
    console.log(`  ${what.padEnd(44)} ${show(a).padStart(10)} ${show(b).padStart(10)} ${ratio.padStart(8)}`);
  };
  console.log(`\nmeans (${runs.A.length} A, ${runs.B.length} B)${" ".repeat(22)}1 process  2 processes   2 / 1`);
  row("write msg/s", (f) => f.writesPerSec);
  row("read msg/s", (f) => f.readsPerSec);
  row("e2e p95 ms", (f) => f.e2eP95Ms, 1);
  row("e2e p99 ms", (f) => f.e2eP99Ms, 1);
  row("runner CPU, cores (all its processes)", (f) => f.runnerCores, 2);
  row("runner CPU ms per 1,000 messages", (f) => f.runnerMsPer1000, 1);
  row("busiest process's CPU, cores", (f) => Math.max(...f.perProcess.map((p) => p.cpuCores)), 2);
  row("worst process's loop delay p99, ms", (f) => Math.max(...f.perProcess.map((p) => p.loopDelayP99Ms ?? 0)), 1);
  row("Postgres CPU, cores", (f) => f.postgresCores, 2);
  row("host busy, %", (f) => f.hostBusyPct, 0);
  const skews = runs.B.flatMap((f) => f.perProcess.map((p) => Math.abs(p.startSkewMs ?? 0)));
  const offsets = runs.B.flatMap((f) => f.perProcess.map((p) => Math.abs(p.clockOffsetMs ?? 0)));
  if (skews.length) console.log(`  parts' start skew up to ${num(Math.max(...skews), 2)} ms, clock offsets up to ${num(Math.max(...offsets), 3)} ms`);
}

main().catch((err) => {
  console.error(`bench:processes: ${(err as Error).message}`);
  process.exit(1);
});
