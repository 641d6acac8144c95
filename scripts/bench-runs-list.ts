// `npm run bench:runs-list -- [--runs 1000] [--requests 200]`
// Stores N completed runs with realistic summaries (three HDR histograms of 200,000 latencies each, as a real
// run's, base64-compressed) in a scratch control store on a private embedded Postgres, then calls the
// GET /api/runs route handler repeatedly and prints its p50/p95 latency. Target: p95 under 100 ms for 1,000
// runs. For contrast it also times the previous way (every run with its whole summary, headline in JavaScript).
import { performance } from "node:perf_hooks";
import { GET } from "../app/api/runs/route";
import { prisma } from "../lib/db";
import { encodeHistogram, newHistogram, percentilesOf, recordMicros } from "../lib/measurement/histogram";
import { headlineOf, toRunView } from "../lib/runs/view";
import { newRunId } from "../lib/runs/store";
import type { RunSummary } from "../lib/measurement/summary";
import { testControlStore } from "../lib/testing";
import { toolWorkloads, WorkloadConfig } from "../lib/workloads/config";

// Stored runs of the fan-out workload (pub/sub): the largest summaries (per-group histograms) the list must skip.
const KIND = toolWorkloads().fanout.kind;

function flag(name: string, dflt: number): number {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return dflt;
  const v = Number(argv[i].includes("=") ? argv[i].split("=")[1] : argv[i + 1]);
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a whole number of at least 1`);
  return v;
}

/** Latencies spread like a real run's: most near a median, a long tail (log-normal), in microseconds. */
function histogramOf(medianMicros: number, n: number) {
  const h = newHistogram();
  for (let i = 0; i < n; i++) {
    const z = Math.sqrt(-2 * Math.log(Math.random() || 1e-9)) * Math.cos(2 * Math.PI * Math.random());
    recordMicros(h, Math.max(1, Math.round(medianMicros * Math.exp(0.8 * z))));
  }
  return h;
}

function summaryFor(i: number): RunSummary {
  const config = WorkloadConfig.parse({ kind: KIND, writers: 4, partitions: 4, consumerGroups: 2, durationSeconds: 30 });
  const hs = { write: histogramOf(900 + i, 200_000), read: histogramOf(1500, 200_000), claim: histogramOf(400, 200_000), e2e: histogramOf(4000, 200_000) };
  return {
    schemaVersion: 2,
    workload: config.kind,
    config,
    manifest: {
      postgresVersion: "18.1",
      serverSettings: { fsync: "on", shared_buffers: "128MB" },
      maxConnections: 100,
      serverAddress: "127.0.0.1",
      runnerHost: "bench",
      runnerCores: 2,
      runnerCpuModel: "bench CPU",
      nodeVersion: process.version,
      productVersion: "0.1.0",
      productCommit: "bench",
      startedAt: "2026-01-01T00:00:00Z",
      endedAt: "2026-01-01T00:00:35Z",
      runnerCpuSeconds: 20,
      runnerCpuMsPer1000: { ms: 3, unit: "msg", operations: ["write", "read"] },
      e2eClock: "runner monotonic clock",
    },
    window: { measuredSeconds: 30, warmupSeconds: 5 },
    operations: {
      write: { count: 600_000, perSecond: 20_000 + i, errors: 0, bytes: 600_000 * 1024, latency: { fromSend: percentilesOf(hs.write) } },
      read: {
        count: 1_200_000,
        perSecond: 40_000 + i,
        errors: 0,
        bytes: 1_200_000 * 1024,
        latency: { fromSend: percentilesOf(hs.read) },
        counters: { emptyPolls: 12 },
      },
      claim: { count: hs.claim.totalCount, perSecond: hs.claim.totalCount / 30, errors: 0, latency: { fromSend: percentilesOf(hs.claim) } },
      e2e: { count: hs.e2e.totalCount, perSecond: hs.e2e.totalCount / 30, errors: 0, latency: { fromSend: percentilesOf(hs.e2e) } },
    },
    groups: [0, 1].map((g) => ({
      group: `g${g}`,
      operations: {
        read: {
          count: 600_000,
          perSecond: 20_000,
          errors: 0,
          bytes: 600_000 * 1024,
          latency: { fromSend: percentilesOf(hs.read) },
          counters: { emptyPolls: 6 },
        },
        claim: { count: hs.claim.totalCount, perSecond: hs.claim.totalCount / 30, errors: 0, latency: { fromSend: percentilesOf(hs.claim) } },
        e2e: { count: hs.e2e.totalCount, perSecond: hs.e2e.totalCount / 30, errors: 0, latency: { fromSend: percentilesOf(hs.e2e) } },
      },
    })),
    verification: { ok: true, checked: 1_200_000, unit: "message", problems: [], facts: [] },
    histograms: Object.fromEntries(Object.entries(hs).map(([k, h]) => [k, { fromSend: encodeHistogram(h) }])),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(label: string, requests: number, fn: () => Promise<number>) {
  await fn(); // the first call pays for connecting and planning
  const ms: number[] = [];
  let count = 0;
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    count = await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: ${count} runs, ${requests} requests: p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`);
  return percentile(ms, 95);
}

async function main() {
  const runs = flag("runs", 1000);
  const requests = flag("requests", 200);
  const store = await testControlStore("bench_runs_list");
  process.env.TARGET_DATABASE_URL ??= "postgresql://127.0.0.1:5432/unused"; // a label only: nothing connects to it
  try {
    // Distinct summaries are costly to make; 20 of them are reused across the runs, which the database
    // stores in full each time (what the list must not read).
    const summaries = Array.from({ length: 20 }, (_, i) => summaryFor(i));
    const bytes = JSON.stringify(summaries[0]).length;
    const t0 = Date.now();
    for (let i = 0; i < runs; i += 100) {
      await prisma().run.createMany({
        data: Array.from({ length: Math.min(100, runs - i) }, (_, j) => {
          const s = summaries[(i + j) % summaries.length];
          return {
            id: newRunId(),
            workload: KIND,
            config: s.config as object,
            targetLabel: "embedded default",
            status: "completed",
            phase: "done",
            source: "app",
            createdAt: new Date(Date.UTC(2026, 0, 1) + (i + j) * 60_000),
            finishedAt: new Date(Date.UTC(2026, 0, 1) + (i + j) * 60_000 + 35_000),
            summary: s as object,
            headline: headlineOf(s) as object, // as lib/runs/store.ts finishRun stores it
          };
        }),
      });
    }
    console.log(
      `stored ${runs} completed runs (summary ${(bytes / 1024).toFixed(0)} KiB each, histograms included) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const p95 = await time("GET /api/runs", requests, async () => {
      const res = await GET(new Request("http://127.0.0.1/api/runs"));
      if (res.status !== 200) throw new Error(`GET /api/runs answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { runs: unknown[] }).runs.length;
    });
    await time("GET /api/runs?status=completed&workload=pubsub", requests, async () => {
      const res = await GET(new Request("http://127.0.0.1/api/runs?status=completed&workload=pubsub"));
      return ((await res.json()) as { runs: unknown[] }).runs.length;
    });
    await time("previous way (whole summaries, headline in JS), for contrast", Math.max(5, Math.round(requests / 20)), async () => {
      const rows = await prisma().run.findMany({ orderBy: { createdAt: "desc" } });
      return JSON.stringify({ runs: rows.map((r) => toRunView(r)) }).length ? rows.length : 0;
    });
    console.log(p95 < 100 ? `OK: p95 ${p95.toFixed(1)} ms is under 100 ms` : `SLOW: p95 ${p95.toFixed(1)} ms is over the 100 ms target`);
    process.exitCode = p95 < 100 ? 0 : 1;
  } finally {
    await prisma().$disconnect();
    await store.drop();
  }
}

main().catch((err) => {
  console.error(`bench:runs-list: ${(err as Error).message}`);
  process.exit(1);
});
