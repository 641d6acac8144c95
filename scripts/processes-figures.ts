// Shared by `npm run bench:processes` and `npm run bench:contention`: the target they run on (a private embedded
// Postgres, or --target), and the figures of one run over 1 or N runner processes, read from its summary: rates,
// e2e percentiles, the runner's CPU per process and per 1,000 messages, each part's start skew, clock offset,
// event-loop delay and wait for a CPU, and Postgres's own CPU (it shares this machine's cores).
import { latencyOf, throughputOf } from "../lib/measurement/operations";
import type { RunSummary } from "../lib/measurement/summary";
import type { SummaryRunnerLoad } from "../lib/measurement/runner-load";
import { describeUrl } from "../lib/targets/pgurl";
import { startTestServer } from "../lib/testing";
import { msText, num } from "../runner/format";

export interface BenchTarget {
  url: string;
  label: string;
  release: () => Promise<void>;
}

/** --target as given, else a private embedded Postgres in a temporary folder (fsync off), removed afterwards. */
export async function benchTarget(given: string | undefined): Promise<BenchTarget> {
  if (given) return { url: given, label: describeUrl(given), release: async () => undefined };
  const server = await startTestServer();
  const url = server.url("postgres");
  return { url, label: `a private embedded Postgres (${describeUrl(url)}, fsync off)`, release: () => server.stop() };
}

/** One runner process's figures over the measured window. */
export interface ProcessFigures {
  part: number;
  cpuCores: number;
  loopDelayP99Ms?: number;
  loopDelayMaxMs?: number;
  eventLoopUtilization?: number;
  runQueueWaitMsPerSec?: number;
  clientBound?: boolean;
  startSkewMs?: number;
  clockOffsetMs?: number;
  writesPerSec?: number;
  readsPerSec?: number;
}

export interface RunFigures {
  processes: number;
  writesPerSec: number;
  readsPerSec: number;
  e2eP50Ms?: number;
  e2eP95Ms?: number;
  e2eP99Ms?: number;
  /** Every runner process's CPU over the window, in cores (the coordinator's, which runs no load, left out). */
  runnerCores: number;
  runnerMsPer1000?: number;
  /** The target's processes' CPU, in cores, and the host's busy share (telemetry of a target on this machine). */
  postgresCores?: number;
  hostBusyPct?: number;
  verdict?: string;
  verified: boolean;
  perProcess: ProcessFigures[];
}

const loadFigures = (l: SummaryRunnerLoad | undefined) =>
  l
    ? {
        loopDelayP99Ms: l.loopDelayMs.p99,
        loopDelayMaxMs: l.loopDelayMs.max,
        eventLoopUtilization: l.eventLoopUtilization,
        runQueueWaitMsPerSec: l.runQueueWaitMsPerSec,
        clientBound: l.clientBound,
      }
    : {};

/** The figures of a finished run (one process, or the parts of a run over several). */
export function figuresOf(s: RunSummary): RunFigures {
  const sec = s.window.measuredSeconds || 1;
  const parts = s.manifest.parts ?? [];
  const perProcess: ProcessFigures[] = parts.length
    ? parts.map((p) => ({
        part: p.part,
        cpuCores: p.runnerCpuSeconds / (p.measuredSeconds || 1),
        ...loadFigures(p.runnerLoad),
        startSkewMs: p.startSkewMs,
        clockOffsetMs: p.clockOffsetMs,
        writesPerSec: p.perSecond.write,
        readsPerSec: p.perSecond.read,
      }))
    : [{ part: 0, cpuCores: s.manifest.runnerCpuSeconds / sec, ...loadFigures(s.runnerLoad) }];
  const e2e = latencyOf(s, "e2e");
  const host = s.telemetry?.window?.host;
  return {
    processes: Math.max(1, parts.length),
    writesPerSec: throughputOf(s, "write")?.perSecond ?? 0,
    readsPerSec: throughputOf(s, "read")?.perSecond ?? 0,
    e2eP50Ms: e2e?.p50,
    e2eP95Ms: e2e?.p95,
    e2eP99Ms: e2e?.p99,
    runnerCores: perProcess.reduce((a, p) => a + p.cpuCores, 0),
    runnerMsPer1000: s.manifest.runnerCpuMsPer1000?.ms,
    postgresCores: host?.serverCpuCores,
    hostBusyPct: host?.cpuBusyPct,
    verdict: s.telemetry?.verdict.statement,
    verified: s.verification.ok,
    perProcess,
  };
}

const opt = (v: number | undefined, f: (x: number) => string) => (v === undefined ? "–" : f(v));

/** The run's line: rates, e2e, CPU of the runner and of Postgres. */
export function runLine(label: string, f: RunFigures): string {
  return (
    `${label}: ${f.processes} process${f.processes > 1 ? "es" : ""}: write ${num(f.writesPerSec, 0)}/s, read ${num(f.readsPerSec, 0)}/s, ` +
    `e2e p50/p95/p99 ${msText(f.e2eP50Ms)}/${msText(f.e2eP95Ms)}/${msText(f.e2eP99Ms)} ms; ` +
    `runner CPU ${num(f.runnerCores, 2)} cores (${opt(f.runnerMsPer1000, (x) => num(x, 1))} ms per 1,000 messages), ` +
    `Postgres CPU ${opt(f.postgresCores, (x) => `${num(x, 2)} cores`)}, host ${opt(f.hostBusyPct, (x) => `${num(x, 0)}%`)} busy` +
    `${f.verified ? "" : "; VERIFICATION FAILED"}`
  );
}

/** One line per runner process: its CPU, event loop, wait for a CPU, and (parts) rates, start skew, clock offset. */
export function processLines(f: RunFigures): string[] {
  return f.perProcess.map(
    (p) =>
      `    ${f.processes > 1 ? `part ${p.part}` : "the process"}: CPU ${num(p.cpuCores, 2)} cores, loop delay p99 ${opt(p.loopDelayP99Ms, msText)} ms ` +
      `(max ${opt(p.loopDelayMaxMs, msText)} ms), loop ${opt(p.eventLoopUtilization, (x) => `${num(100 * x, 0)}%`)} busy, ` +
      `waited ${opt(p.runQueueWaitMsPerSec, (x) => num(x, 0))} ms/s for a CPU${p.clientBound ? " → the client rule held (its delay in the latencies)" : ""}` +
      (p.startSkewMs !== undefined
        ? `; write ${opt(p.writesPerSec, (x) => num(x, 0))}/s, read ${opt(p.readsPerSec, (x) => num(x, 0))}/s, start skew ${num(p.startSkewMs, 2)} ms, clock offset ${num(p.clockOffsetMs ?? 0, 3)} ms`
        : ""),
  );
}

/** Mean of a figure over runs (undefined where no run has it). */
export function meanOf(runs: readonly RunFigures[], pick: (f: RunFigures) => number | undefined): number | undefined {
  const xs = runs.map(pick).filter((x): x is number => x !== undefined);
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
}
