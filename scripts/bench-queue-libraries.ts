// `npm run bench:queue-libraries -- [--target URL] [--drain 20000] [--rate 200] [--duration 20s]`
// The queue libraries on this machine, in both modes: each library's drain throughput (the vendors' mode: N no-op
// jobs pre-loaded, then drained) and, at one offered rate, each job's latency from its scheduled enqueue to its
// start and to its end, beside the article's hand-written SKIP LOCKED queue at the same offered rate (its writes
// throttled to that rate, each message timed from its schedule to its read). Then the figures others published,
// each with its hardware and mode: they are not comparable with each other, nor with these, and the table says so.
// Without --target it starts a private embedded Postgres (default settings) in a temporary folder, removed
// afterwards; it then shares this machine's cores with the runner, which the output says.
import { latencyOf, throughputOf } from "../lib/measurement/operations";
import type { RunSummary } from "../lib/measurement/summary";
import { factOf } from "../lib/measurement/verification";
import { WorkloadConfig } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload, verificationError } from "../runner/engine";
import { OTHER_QUEUES } from "../workloads/job-library/published";
import { graphileWorker } from "../workloads/graphile-worker/definition";
import { pgBoss } from "../workloads/pg-boss/definition";
import { benchArgs } from "./bench-args";
import { benchTarget } from "./bench-target";

const LIBRARIES = [graphileWorker, pgBoss] as const;

/** A preset's config with the bench's own settings over it. */
const presetConfig = (def: (typeof LIBRARIES)[number], id: string, over: Record<string, unknown>) => ({
  ...(def.presets.find((p) => p.id === id)?.config as Record<string, unknown>),
  ...over,
});

async function run(input: Record<string, unknown>, url: string): Promise<RunSummary> {
  const s = await runWorkload(WorkloadConfig.parse(input), url, { log: () => undefined, telemetry: false });
  const problem = verificationError(s);
  if (problem) throw new Error(`${input.kind}: verification failed: ${problem}`);
  return s;
}

const num = (v: number | undefined) => (v === undefined ? "—" : Math.round(v).toLocaleString("en-US"));
const ms = (v: number | undefined) => (v === undefined ? "—" : v < 10 ? v.toFixed(2) : v.toFixed(1));
const pad = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [
    pad(header, widths),
    pad(
      widths.map((w) => "-".repeat(w)),
      widths,
    ),
    ...rows.map((r) => pad(r, widths)),
  ].join("\n");
}

async function main() {
  const a = benchArgs(process.argv.slice(2), ["target", "drain", "rate", "duration"]);
  const jobs = Number(a.drain ?? 20_000);
  const rate = Number(a.rate ?? 200);
  const seconds = parseDuration(a.duration ?? "20s");
  const t = await benchTarget(a.target, "libs");
  console.log(`Target: ${t.label}\n`);
  try {
    const drains: string[][] = [];
    for (const def of LIBRARIES) {
      const s = await run(presetConfig(def, `${def.kind}-drain`, { drainJobs: jobs, durationSeconds: 600 }), t.url);
      drains.push([
        def.kind,
        def.describe(s.config as never).at(-1) ?? "",
        jobs.toLocaleString("en-US"),
        String(factOf(s.verification, "drain throughput (jobs/s)") ?? "did not finish"),
      ]);
    }
    console.log(`Drain (the vendors' mode): ${jobs.toLocaleString("en-US")} no-op jobs pre-loaded, then drained\n`);
    console.log(table(["library", "workers", "jobs", "jobs/s drained"], drains));

    const offered: string[][] = [];
    for (const def of LIBRARIES) {
      const s = await run(presetConfig(def, `${def.kind}-rate`, { rate, durationSeconds: seconds, warmupSeconds: 2 }), t.url);
      const start = latencyOf(s, "start");
      const done = latencyOf(s, "e2e");
      offered.push([def.kind, num(throughputOf(s, "read")?.perSecond), ms(start?.p50), ms(start?.p99), ms(done?.p50), ms(done?.p99), ms(done?.p999)]);
    }
    const q = await run(
      { kind: "queue", throttleWritesPerSec: rate, writers: 4, readers: 4, payloadBytes: 64, durationSeconds: seconds, warmupSeconds: 2 },
      t.url,
    );
    const e2e = latencyOf(q, "e2eScheduled") ?? latencyOf(q, "e2e");
    offered.push(["queue (the article's SKIP LOCKED)", num(throughputOf(q, "read")?.perSecond), "—", "—", ms(e2e?.p50), ms(e2e?.p99), ms(e2e?.p999)]);
    console.log(
      `\nOffered rate: ${rate.toLocaleString("en-US")} jobs/s for ${seconds} s measured (2 s warm-up); latency in ms from each job's scheduled enqueue\n`,
    );
    console.log(table(["workload", "done/s", "start p50", "start p99", "done p50", "done p99", "done p99.9"], offered));
    console.log("(the queue's 'done' is a message read, from its scheduled write: the same question of a hand-written queue)");

    const published = [
      ...LIBRARIES.flatMap((d) => d.published ?? []).map((p) => [p.title, p.loadModel, p.server, p.source]),
      ...OTHER_QUEUES.map((o) => [o.figure, o.mode, o.hardware, o.source]),
    ];
    console.log("\nPublished figures, each in its own mode on its own hardware (not comparable with each other or with the above):\n");
    for (const [figure, mode, hardware, source] of published) console.log(`- ${figure}\n    mode: ${mode}\n    hardware: ${hardware}\n    source: ${source}`);
  } finally {
    await t.release();
  }
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
