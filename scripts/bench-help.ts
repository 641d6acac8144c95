// `npm run bench:help -- [--times 5] [--workload pubsub] [--busy 0]`
// Times the CLI's help as a person asks for it: `npm run bench -- --help` and `npm run bench -- <workload> --help`,
// each a fresh process, run in turn --times times; prints the median and the slowest, the machine's load average,
// and the longest line. The goal: under a second on a busy machine (it loads the workload definitions, not the
// engine). `node --import tsx runner/cli.ts` is timed too: what the CLI itself takes, without npm's start.
// --busy N keeps N processes spinning meanwhile, for a busy machine on demand (stopped at the end).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { PROJECT_ROOT } from "../lib/paths";
import { workloadDefinition } from "../lib/workloads/config";
import { benchArgs } from "./bench-args";

const a = benchArgs(process.argv.slice(2), ["times", "workload", "busy"]);
const times = Number(a.times ?? 5);
if (!Number.isInteger(times) || times < 1) throw new Error("--times must be a whole number of at least 1");
const busy = Number(a.busy ?? 0);
if (!Number.isInteger(busy) || busy < 0) throw new Error("--busy must be a whole number of processes (0 or more)");
const workload = a.workload ?? "pubsub";
if (!workloadDefinition(workload)) throw new Error(`--workload: no workload "${workload}"`);

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const cases = [
  { label: "npm run bench -- --help", cmd: npm, args: ["run", "-s", "bench", "--", "--help"] },
  { label: `npm run bench -- ${workload} --help`, cmd: npm, args: ["run", "-s", "bench", "--", workload, "--help"] },
  { label: "node --import tsx runner/cli.ts --help", cmd: process.execPath, args: ["--import", "tsx", "runner/cli.ts", "--help"] },
];

/** One run: its wall time in ms and its output's longest line. */
function once(c: (typeof cases)[number]): { ms: number; longest: number } {
  const t0 = performance.now();
  const r = spawnSync(c.cmd, c.args, { cwd: PROJECT_ROOT, encoding: "utf8" });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${c.label} exited ${r.status}: ${r.stderr}`);
  return { ms, longest: Math.max(...r.stdout.split("\n").map((l) => l.length)) };
}

once(cases[0]); // tsx's transform cache, as any second call finds it
const spinners: ChildProcess[] = Array.from({ length: busy }, () => spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }));
const ms = new Map(cases.map((c) => [c.label, [] as number[]]));
const longest = new Map<string, number>();
for (let i = 0; i < times; i++)
  for (const c of cases) {
    const r = once(c);
    ms.get(c.label)!.push(r.ms);
    longest.set(c.label, r.longest);
  }
for (const s of spinners) s.kill();
const load = os.loadavg().map((l) => l.toFixed(2));
const spinning = busy ? `, ${busy} spinning process${busy > 1 ? "es" : ""} beside` : "";
console.log(`${times} runs each, in turn; ${os.availableParallelism()} cores${spinning}, load average ${load.join(" ")}`);
for (const c of cases) {
  const sorted = ms.get(c.label)!.sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`${c.label.padEnd(44)} median ${Math.round(median)} ms, slowest ${Math.round(sorted.at(-1)!)} ms, longest line ${longest.get(c.label)}`);
}
