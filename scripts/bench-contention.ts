// `npm run bench:contention -- [--duration 15s] [--warmup 2s] [--target URL] [--hogs 1] [--blocks QHHQ] [--placement core|spread]`
// [REF_TOOL=/path/to/pg_msg_bench npm run bench:contention]
// Issue #23's contention benchmark: the queue with 4 writers and 4 readers at 500 msg/s, quiet and with a CPU hog
// (a busy loop) pinned on the core the runner runs on (CPU 0). Our runner with 1 process and with `--processes
// auto` (this machine's cores, counted before the pin), and with REF_TOOL the reference tool, pinned alike:
// - `--placement core` (default): every process and thread of each tool on CPU 0 with the hog (our parts are
//   forks: they inherit the pin), "both tools pinned alike" read literally;
// - `--placement spread`: each tool's main thread on CPU 0 with the hog, the rest free: our part processes get
//   every core once ready, the reference's threads other than its main one too (its runtime spreads over them).
// Quiet and hog blocks alternate (QHHQ), each block running the tools in the other order from the last, since this
// machine's other work varies; printed per run: write and read rates, e2e p50/p95/p99 and (ours) the writes'
// latency from their schedule; then each tool's medians quiet → hog, and with REF_TOOL each of ours judged against
// the reference: no more fragile when its reads fell by no larger share and its e2e p95 rose by no more ms. The hog and the pin are
// scripts/verdict-cases/_evidence.ts withCpuHogs (the verdict's cpu-hog case's).
import { execFile, execFileSync } from "node:child_process";
import os from "node:os";
import { parse as parseUrl } from "pg-connection-string";
import { parseToolOutput } from "../lib/imports/parse";
import { latencyOf } from "../lib/measurement/operations";
import { WorkloadConfig } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload } from "../runner/engine";
import { msText, num } from "../runner/format";
import { benchArgs } from "./bench-args";
import { benchTarget, figuresOf, processLines } from "./processes-figures";
import { withCpuHogs } from "./verdict-cases/_evidence";

const SHAPE = { kind: "queue", writers: 4, readers: 4, throttleWritesPerSec: 500 } as const;
/** Every CPU of this machine, as taskset's list. */
const ALL_CPUS = `0-${os.cpus().length - 1}`;

interface Row {
  tool: string;
  condition: string;
  writesPerSec: number;
  readsPerSec: number;
  e2e?: { p50: number; p95: number; p99: number };
  fromScheduleP50Ms?: number;
  detail: string[];
}

/** Our runner over `processes` processes, in this (pinned) process: its parts are forked under the same pin. */
async function ours(url: string, processes: number, duration: number, warmup: number, condition: string, spread: boolean): Promise<Row> {
  const config = WorkloadConfig.parse({ ...SHAPE, durationSeconds: duration, warmupSeconds: warmup, processes });
  // Spread: once its parts are ready (before the start barrier), each may use every core (the coordinator, which
  // runs no load, stays on CPU 0 with the hog).
  const log = (l: string) => {
    if (spread) for (const m of l.matchAll(/part \d+ pid (\d+)/g)) execFileSync("taskset", ["-a", "-p", "-c", ALL_CPUS, m[1]], { stdio: "ignore" });
  };
  const s = await runWorkload(config, url, { drainSeconds: 10, log });
  const f = figuresOf(s);
  const e2e = latencyOf(s, "e2e");
  return {
    tool: `ours, ${processes} process${processes > 1 ? "es" : ""}`,
    condition,
    writesPerSec: f.writesPerSec,
    readsPerSec: f.readsPerSec,
    ...(e2e ? { e2e } : {}),
    fromScheduleP50Ms: latencyOf(s, "writeScheduled")?.p50,
    detail: [...processLines(f), ...(f.verified ? [] : ["    VERIFICATION FAILED"]), ...(f.verdict ? [`    verdict: ${f.verdict}`] : [])],
  };
}

/** The reference tool's flags for the same configuration and target (Go's flag syntax, its own names). */
function refArgs(url: string, duration: number): string[] {
  const c = parseUrl(url);
  return [
    ...["-mode", "queue", "-writers", String(SHAPE.writers), "-readers", String(SHAPE.readers)],
    ...["-throttle_writes", String(SHAPE.throttleWritesPerSec), "-duration", `${duration}s`, "-report", "5s"],
    ...["-host", c.host ?? "127.0.0.1", "-port", String(c.port ?? 5432), "-db", c.database ?? "postgres", "-user", c.user ?? "postgres"],
    ...(c.password ? ["-password", c.password] : []),
  ];
}

/** The reference tool, started from this (pinned) process so it runs under the same pin; its output read as an import. */
function reference(bin: string, url: string, duration: number, condition: string, spread: boolean): Promise<Row> {
  const args = refArgs(url, duration);
  return new Promise((resolve, reject) => {
    // Spread: started on every core, then its main thread alone pinned to CPU 0 (its other threads stay free).
    const [cmd, cmdArgs] = spread ? ["taskset", ["-c", ALL_CPUS, bin, ...args]] : [bin, args];
    const child = execFile(cmd, cmdArgs, { maxBuffer: 64 * 1024 * 1024, timeout: (duration + 120) * 1000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`REF_TOOL ${bin} failed (${err.message.split("\n")[0]}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
      try {
        const s = parseToolOutput(`${stdout}\n${stderr}`, { command: `pg_msg_bench ${args.join(" ")}` });
        const e = s.latencyMs.e2e;
        resolve({
          tool: "reference",
          condition,
          writesPerSec: s.throughput.writeMsgPerSec,
          readsPerSec: s.throughput.readMsgPerSec,
          ...(e ? { e2e: { p50: e.p50.ms, p95: e.p95.ms, p99: e.p99.ms } } : {}),
          detail: [],
        });
      } catch (e) {
        reject(new Error(`could not read REF_TOOL's output: ${(e as Error).message}`));
      }
    });
    if (spread && child.pid) setTimeout(() => execFile("taskset", ["-p", "-c", "0", String(child.pid)], () => undefined), 50);
  });
}

function line(r: Row): string {
  const e = r.e2e;
  return (
    `${`${r.tool}, ${r.condition}:`.padEnd(30)} write ${num(r.writesPerSec, 0).padStart(5)}/s, read ${num(r.readsPerSec, 0).padStart(5)}/s, ` +
    `e2e p50/p95/p99 ${e ? `${msText(e.p50)}/${msText(e.p95)}/${msText(e.p99)}` : "–"} ms` +
    (r.fromScheduleP50Ms !== undefined ? `, write from schedule p50 ${msText(r.fromScheduleP50Ms)} ms` : "")
  );
}

/** The median of some numbers (undefined for none). */
function median(xs: number[]): number | undefined {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per tool: the medians of its quiet runs and of its runs under the hog. */
function mediansOf(rows: Row[], tool: string) {
  const [q, h] = ["quiet", "hog"].map((c) => rows.filter((r) => r.tool === tool && r.condition === c));
  const reads = [q, h].map((rs) => median(rs.map((r) => r.readsPerSec)));
  const p95 = [q, h].map((rs) => median(rs.flatMap((r) => (r.e2e ? [r.e2e.p95] : []))));
  return { reads, p95 };
}

/**
 * Per tool: the medians quiet → hog, as a ratio and (latency) as the milliseconds the hog added; then each of ours
 * against the reference. "No more fragile" is judged on what the hog did to each tool: its reads fell by no larger
 * share, and its e2e p95 rose by no more milliseconds. A wait for a CPU adds to a latency, it does not multiply it,
 * so the ratio of two p95s mostly compares the tools' quiet baselines (ours a few ms, the reference's, with its
 * 1.1 ms sleeps and polling, tens to hundreds): it is printed, not judged.
 */
function compare(rows: Row[]) {
  console.log("\nquiet → hog (medians)");
  const ratio = (x: number | undefined, y: number | undefined) => (x && y !== undefined ? `${num(y / x, 2)}×` : "–");
  const added = (x: number | undefined, y: number | undefined) =>
    x !== undefined && y !== undefined ? `${y >= x ? "+" : "−"}${msText(Math.abs(y - x))} ms` : "–";
  const tools = [...new Set(rows.map((r) => r.tool))];
  for (const tool of tools) {
    const { reads, p95 } = mediansOf(rows, tool);
    console.log(
      `${`${tool}:`.padEnd(22)} reads ${num(reads[0] ?? 0, 0)} → ${num(reads[1] ?? 0, 0)}/s (${ratio(reads[0], reads[1])}), ` +
        `e2e p95 ${msText(p95[0])} → ${msText(p95[1])} ms (${ratio(p95[0], p95[1])}, ${added(p95[0], p95[1])})`,
    );
  }
  if (!tools.includes("reference")) return;
  const ref = mediansOf(rows, "reference");
  const refReads = ref.reads[0] && ref.reads[1] !== undefined ? ref.reads[1] / ref.reads[0] : undefined;
  const refAdded = ref.p95[0] !== undefined && ref.p95[1] !== undefined ? ref.p95[1] - ref.p95[0] : undefined;
  console.log("\nagainst the reference (no more fragile: reads fell by no larger share, e2e p95 rose by no more ms)");
  for (const tool of tools.filter((t) => t !== "reference")) {
    const { reads, p95 } = mediansOf(rows, tool);
    const keptReads = reads[0] && reads[1] !== undefined ? reads[1] / reads[0] : undefined;
    const addedMs = p95[0] !== undefined && p95[1] !== undefined ? p95[1] - p95[0] : undefined;
    if (keptReads === undefined || addedMs === undefined || refReads === undefined || refAdded === undefined) {
      console.log(`${`${tool}:`.padEnd(22)} not judged (a median is missing)`);
      continue;
    }
    // 2% of the reads: the run-to-run noise of a throttled rate's count over a 15 s window.
    const readsOk = keptReads >= refReads - 0.02;
    const latencyOk = addedMs <= refAdded;
    console.log(
      `${`${tool}:`.padEnd(22)} reads kept ${num(100 * keptReads, 1)}% (reference ${num(100 * refReads, 1)}%), e2e p95 ${added(p95[0], p95[1])} ` +
        `(reference ${added(ref.p95[0], ref.p95[1])}): ${readsOk && latencyOk ? "no more fragile than the reference" : `MORE FRAGILE (${[readsOk ? "" : "reads", latencyOk ? "" : "e2e p95"].filter(Boolean).join(", ")})`}`,
    );
  }
}

async function main() {
  const a = benchArgs(process.argv.slice(2), ["duration", "warmup", "target", "hogs", "blocks", "placement"]);
  const placement = a.placement ?? "core";
  if (placement !== "core" && placement !== "spread") throw new Error(`--placement expects core or spread, got "${a.placement}"`);
  const spread = placement === "spread";
  const duration = parseDuration(a.duration ?? "15s");
  const warmup = parseDuration(a.warmup ?? "2s");
  if (duration === null || duration < 1) throw new Error(`--duration expects a duration such as 15s or 1m, got "${a.duration}"`);
  if (warmup === null) throw new Error(`--warmup expects a duration such as 2s, got "${a.warmup}"`);
  const hogs = Number(a.hogs ?? "1");
  if (!Number.isInteger(hogs) || hogs < 1 || hogs > 16) throw new Error(`--hogs expects a whole number of busy loops from 1 to 16, got "${a.hogs}"`);
  const blocks = (a.blocks ?? "QHHQ").toUpperCase();
  if (!/^[QH]+$/.test(blocks) || !blocks.includes("Q") || !blocks.includes("H"))
    throw new Error(`--blocks expects a sequence of Q (quiet) and H (under the hog) with both, such as QHHQ, got "${a.blocks}"`);
  const ref = process.env.REF_TOOL;
  // `--processes auto` as the CLI resolves it, counted before the pin (pinned, this process sees one CPU).
  const auto = os.availableParallelism();
  const target = await benchTarget(a.target);
  console.log(
    `queue, ${SHAPE.writers} writers / ${SHAPE.readers} readers at ${SHAPE.throttleWritesPerSec} msg/s, ${duration} s measured (ours after ${warmup} s warm-up; ` +
      `the reference counts from its start), on ${target.label}; --processes auto = ${auto} here; blocks ${blocks} (Q quiet, H under the hog); placement ${placement}: ${spread ? "each tool's main thread on CPU 0, our parts and the reference's other threads on every core" : "every process and thread of each tool on CPU 0"}`,
  );
  if (!ref) console.log("ours alone: give the reference tool's binary with REF_TOOL=/path/to/pg_msg_bench to run it beside ours, pinned alike");
  const rows: Row[] = [];
  const log = (l: string) => console.log(`  ${l}`);
  const say = (r: Row) => {
    rows.push(r);
    console.log(line(r));
    for (const d of r.detail) console.log(d);
  };
  const tools: ((condition: string) => Promise<Row>)[] = [
    (c) => ours(target.url, 1, duration, warmup, c, spread),
    (c) => ours(target.url, auto, duration, warmup, c, spread),
    ...(ref ? [(c: string) => reference(ref, target.url, duration, c, spread)] : []),
  ];
  try {
    // Quiet and hog blocks alternate (QHHQ), and each block runs the tools in the other order from the last, so
    // the machine's other work (it changes from minute to minute) weighs on every tool and condition alike.
    for (const [b, q] of [...blocks].entries()) {
      const condition = q === "Q" ? "quiet" : "hog";
      await withCpuHogs(q === "Q" ? 0 : hogs, log, async (hogCores) => {
        log(`block ${b + 1} (${condition}), load average ${os.loadavg()[0].toFixed(1)}`);
        for (const tool of b % 2 ? [...tools].reverse() : tools) say(await tool(condition));
        if (q === "H") log(`the hog${hogs > 1 ? "s" : ""} used ${num(hogCores(), 2)} cores over these runs`);
      });
    }
  } finally {
    await target.release();
  }
  compare(rows);
}

main().catch((err) => {
  console.error(`bench:contention: ${(err as Error).message}`);
  process.exit(1);
});
