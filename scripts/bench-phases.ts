// `npm run bench:phases -- [--target URL] [--workload queue|pg-boss|graphile-worker] [--kinds hold-xmin,long-reader,pause-workers]
//                          [--rate 500] [--duration 60s] [--at 15s] [--length 20s]`
// What a fault or bloat phase does to a queue on this machine: for each phase kind asked (default: the held
// transaction), one run of the workload at a fixed offered rate with that phase in the middle of its window. Prints,
// per phase, its report as the CLI prints it (the consumers' rate and the delivery latency before, during and after
// it, the dead tuples and table sizes from its start to its end, the time to recover to the rate before it), then
// the run's seconds in 5 s rows around it (rate, backlog, dead tuples as the telemetry read them), so the growth during
// the phase and the recovery after it can be read, second by second. Without --target it starts a private embedded
// Postgres (default settings) that shares this machine's cores with the runner, which the output says.
import type { RunSummary } from "../lib/measurement/summary";
import type { Sample } from "../lib/measurement/sample";
import { INSTANT_KINDS, PHASE_KINDS, type PhaseKind } from "../lib/phases/shape";
import { phaseReportLines } from "../lib/phases/words";
import { parseConfig } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { type EngineSample, runWorkload, verificationError } from "../runner/engine";
import { benchArgs } from "./bench-args";
import { benchTarget } from "./bench-target";

/** Each workload at an offered rate: its own rate field, and its writers and readers kept as its preset has them. */
const RATED: Record<string, (rate: number) => Record<string, unknown>> = {
  queue: (rate) => ({ kind: "queue", writers: 4, readers: 4, throttleWritesPerSec: rate }),
  "pg-boss": (rate) => ({ kind: "pg-boss", mode: "rate", rate, enqueuers: 4, batchSize: 50, burstWhenBatchFull: true, notify: true }),
  "graphile-worker": (rate) => ({ kind: "graphile-worker", mode: "rate", rate, enqueuers: 4 }),
};

const seconds = (name: string, v: string | undefined, fallback: string) => {
  const s = parseDuration(v ?? fallback);
  if (s === null || s < 1) throw new Error(`--${name} expects a duration such as ${fallback}, got "${v}"`);
  return s;
};

/** The run's seconds in rows of `every` s: its consumers' rate, its backlog, and the dead tuples the telemetry read. */
function secondsTable(samples: EngineSample[], rateOp: string, every: number): string {
  const rows = ["   t (s)   rate/s   backlog   dead tuples"];
  for (const s of samples) {
    const m = s.metrics as Sample["metrics"];
    const t = Math.round(m.elapsedSec);
    if (s.phase === "draining" || t % every !== 0) continue;
    const rate = m.operations[rateOp]?.perSecond ?? 0;
    const dead = m.telemetry?.tables?.deadTuples;
    rows.push(
      `${String(t).padStart(8)} ${Math.round(rate).toLocaleString("en-US").padStart(8)} ${String(m.measures.backlog ?? "–").padStart(9)} ${(dead === undefined ? "–" : dead.toLocaleString("en-US")).padStart(13)}`,
    );
  }
  return rows.join("\n");
}

async function main() {
  const a = benchArgs(process.argv.slice(2), ["target", "workload", "kinds", "rate", "duration", "at", "length"]);
  const workload = a.workload ?? "queue";
  if (!RATED[workload]) throw new Error(`--workload expects one of ${Object.keys(RATED).join(", ")}, got "${workload}"`);
  const kinds = (a.kinds ?? "hold-xmin").split(",").map((k) => k.trim()) as PhaseKind[];
  for (const k of kinds) if (!PHASE_KINDS.includes(k)) throw new Error(`--kinds expects some of ${PHASE_KINDS.join(", ")}, got "${k}"`);
  const rate = Number(a.rate ?? 500);
  if (!(rate > 0)) throw new Error(`--rate expects a rate per second, got "${a.rate}"`);
  const duration = seconds("duration", a.duration, "60s");
  const at = seconds("at", a.at, "15s");
  const length = seconds("length", a.length, "20s");
  const target = await benchTarget(a.target, "phases");
  console.log(`target: ${target.label}`);
  try {
    for (const kind of kinds) {
      // An instant kind (kill-backend) takes no length: it acts at --at.
      const instant = INSTANT_KINDS.includes(kind);
      const phase = instant ? `${kind}@${at}s` : `${kind}@${at}s+${length}s`;
      const parsed = parseConfig({ ...RATED[workload](rate), warmupSeconds: 2, durationSeconds: duration, phases: phase });
      if (!parsed.ok) throw new Error(`${workload} with ${phase}: ${Object.values(parsed.errors).join("; ")}`);
      console.log(`\n=== ${workload} at ${rate.toLocaleString("en-US")}/s, ${duration} s measured, phase ${phase} ===`);
      const samples: EngineSample[] = [];
      const s: RunSummary = await runWorkload(parsed.config, target.url, { log: () => undefined, onSample: (x) => void samples.push(x) });
      const problem = verificationError(s);
      console.log(
        problem ? `verification FAILED: ${problem}` : `verification OK: ${s.verification.checked.toLocaleString("en-US")} ${s.verification.unit}s checked`,
      );
      // A killed backend's reconnections and the operations it put in doubt, as the summary's notes say them.
      for (const n of s.notes ?? []) if (/in doubt|reconnected/.test(n)) console.log(n);
      for (const r of s.phases ?? []) console.log(phaseReportLines(r).join("\n"));
      const rateOp = s.phases?.[0]?.rate.operation ?? "read";
      console.log(`\nthe run's seconds, every 5 s (the phase ${instant ? `at ${at} s` : `from ${at} s to ${at + length} s`} on this clock):`);
      console.log(secondsTable(samples, rateOp, 5));
      if (s.telemetry?.verdict) console.log(`\nwhy this number: ${s.telemetry.verdict.statement}`);
    }
  } finally {
    await target.release();
  }
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
