// `npm run bench:telemetry -- [--target URL] [--duration 10s] [--only collector|beside|waits]`
// What the telemetry itself costs, measured: the collector alone on the target for --duration (statements and
// round trips per second, time per sample, the runner's CPU, the collector backend's CPU on the server when the
// target is on this machine, transactions the target counted), then the same throttled queue run without and
// with the collector beside it (runner CPU per 1,000 messages), then the wait sampler's cost (its backend's CPU
// on the target and its CPU in the runner, ~10 readings a second) beside the CPU time the target spent on a
// run: it must stay under 1 %. Without --target it starts a private embedded Postgres in a temporary folder and
// removes it afterwards.
import { performance } from "node:perf_hooks";
import pg from "pg";
import { describeUrl } from "../lib/targets/pgurl";
import { startTestServer } from "../lib/testing";
import { telemetryWindow } from "../lib/telemetry/window";
import { WorkloadConfig } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload } from "../runner/engine";
import { num } from "../runner/format";
import { TelemetryCollector } from "../runner/telemetry/collector";
import { processCpuSeconds } from "../runner/telemetry/host";
import { WaitSampler } from "../runner/telemetry/waits";
import { benchArgs } from "./bench-args";
import { throughputOf } from "../lib/measurement/operations";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function commits(admin: pg.Client): Promise<number> {
  const r = await admin.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()");
  return Number(r.rows[0].n);
}

async function collectorAlone(url: string, seconds: number) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const collector = await TelemetryCollector.start(url, { keep: seconds + 5 });
    const pid = collector.backendPid;
    // pg_stat_database is flushed by backends at most once a second: let the start's own transactions land.
    await sleep(1200);
    const x0 = await commits(admin);
    const cpuSec0 = processCpuSeconds(pid);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const before = collector.samples().length;
    await sleep(seconds * 1000);
    const cpu = process.cpuUsage(cpu0);
    const wall = (performance.now() - t0) / 1000;
    const cpuSec1 = processCpuSeconds(pid);
    const samples = collector.samples().slice(before);
    await collector.stop();
    await sleep(1200);
    // The bench's own two reads of pg_stat_database are in the count; take them out.
    const xacts = (await commits(admin)) - x0 - 1;
    const w = telemetryWindow([...samples]);
    if (!w) throw new Error("the collector took no sample: is the target answering?");
    const ms = samples.map((s) => s.overhead.ms).sort((a, b) => a - b);
    console.log(`\n=== the collector alone, ${num(wall, 1)} s ===`);
    console.log(`samples                          ${samples.length} (${num(samples.length / wall, 2)}/s)`);
    console.log(
      `statements on the target         ${num(w.overhead.statementsPerSec, 1)}/s (${samples[0]?.overhead.statements ?? 0} per sample, one round trip)`,
    );
    console.log(`transactions the target counted  ${num(xacts / wall, 1)}/s (pg_stat_database, anything else on the target included)`);
    console.log(`time per sample                  median ${num(ms[Math.floor(ms.length / 2)] ?? 0, 2)} ms, max ${num(ms[ms.length - 1] ?? 0, 2)} ms`);
    console.log(
      `runner CPU                       ${num(((cpu.user + cpu.system) / 1e6 / wall) * 100, 2)}% of one core (the collector and the client probe, nothing else runs)`,
    );
    console.log(
      cpuSec0 !== undefined && cpuSec1 !== undefined
        ? `server CPU (collector's backend)  ${num(((cpuSec1 - cpuSec0) / wall) * 100, 2)}% of one core (/proc/${pid})`
        : `server CPU (collector's backend)  not measured: ${collector.info.host.reason}`,
    );
    for (const m of collector.info.missing) console.log(`not measured: ${m}`);
  } finally {
    await admin.end();
  }
}

async function besideRun(url: string, seconds: number) {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 4, readers: 4, throttleWritesPerSec: 1000, durationSeconds: seconds, warmupSeconds: 1 });
  console.log(`\n=== queue, 4 writers, 4 readers, 1,000 msg/s, ${seconds} s: without and with the collector ===`);
  for (const withTelemetry of [false, true]) {
    const summary = await runWorkload(config, url, { log: () => undefined, telemetry: withTelemetry });
    const m = summary.manifest;
    console.log(
      `${withTelemetry ? "with telemetry   " : "without telemetry"}  runner CPU ${num((100 * m.runnerCpuSeconds) / summary.window.measuredSeconds, 1)}% of one core, ${num(m.runnerCpuMsPer1000?.ms ?? 0, 2)} ms per 1,000 ${m.runnerCpuMsPer1000?.unit ?? "items"}; writes ${num(throughputOf(summary, "write")?.perSecond ?? 0, 0)}/s`,
    );
  }
  console.log("(one run each on a shared machine: differences of a few % are noise; the collector alone above is the cost itself)");
}

/**
 * The wait sampler's cost beside a throttled queue run: a collector (with its sampler, under its budget) reads
 * the target while the run goes; its sampler backend's CPU on the target, and its CPU in the runner (a reading's
 * runner CPU measured alone at 10 a second, less the idle process's, times the readings taken), against the
 * CPU the target's processes spent meanwhile.
 */
async function samplerCost(url: string, seconds: number) {
  console.log(`\n=== the wait sampler beside a queue run, 4 writers, 4 readers, 1,000 msg/s, ${seconds} s ===`);
  const cpuOver = async (ms: number) => {
    const c0 = process.cpuUsage();
    const a0 = performance.now();
    await sleep(ms);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1e6 / ((performance.now() - a0) / 1000);
  };
  const idleCores = await cpuOver(seconds * 1000);
  const alone = await WaitSampler.start(url, { runPids: () => [], extension: false });
  const withSampler = await cpuOver(seconds * 1000);
  const aloneReadings = (await alone.take())?.ticks ?? 0;
  await alone.stop();
  const runnerSecPerReading = aloneReadings > 0 ? (Math.max(withSampler - idleCores, 0) * seconds) / aloneReadings : 0;

  const config = WorkloadConfig.parse({ kind: "queue", writers: 4, readers: 4, throttleWritesPerSec: 1000, durationSeconds: seconds, warmupSeconds: 1 });
  const collector = await TelemetryCollector.start(url, { keep: seconds + 10 });
  const pid = collector.waitsBackendPid;
  const s0 = pid === undefined ? undefined : processCpuSeconds(pid);
  const before = collector.samples().length;
  const t0 = performance.now();
  await runWorkload(config, url, { log: () => undefined, telemetry: false });
  const wall = (performance.now() - t0) / 1000;
  const s1 = pid === undefined ? undefined : processCpuSeconds(pid);
  const samples = collector.samples().slice(before);
  await collector.stop();
  const w = telemetryWindow([...samples]);
  const readingsPerSec = (w?.waitReadings ?? 0) / (w?.seconds || 1);
  console.log(`wait source                      ${collector.info.waits?.note ?? "none"}`);
  console.log(`readings                         ${num(readingsPerSec, 1)}/s over the run (10/s alone)`);
  const runnerCores = runnerSecPerReading * readingsPerSec;
  console.log(
    `sampler in the runner            ${num(100 * runnerCores, 2)}% of one core (${num(runnerSecPerReading * 1000, 2)} ms a reading, measured alone less the idle process's ${num(100 * idleCores, 2)}%)`,
  );
  if (s0 === undefined || s1 === undefined || !w?.host) {
    console.log(`server CPU not measured: ${collector.info.host.reason}`);
    return;
  }
  const serverCores = (s1 - s0) / wall;
  const targetCores = w.host.serverCpuCores - serverCores;
  const share = (100 * (serverCores + runnerCores)) / targetCores;
  console.log(`sampler's backend on the target  ${num(100 * serverCores, 2)}% of one core (/proc/${pid}/schedstat)`);
  console.log(`the target's processes           ${num(100 * targetCores, 1)}% of one core (the sampler's backend left out)`);
  console.log(`sampler's cost / the target's CPU  ${num(share, 2)}% ${share < 1 ? "(under 1 %)" : "(OVER the 1 % budget)"}`);
}

async function main() {
  const a = benchArgs(process.argv.slice(2), ["target", "duration", "only"]);
  const seconds = parseDuration(a.duration ?? "10s");
  if (seconds === null || seconds < 2) throw new Error(`--duration expects a duration of 2s or more, such as 10s or 1m, got "${a.duration}"`);
  const server = a.target ? undefined : await startTestServer();
  const url = a.target ?? server!.url("postgres");
  try {
    console.log(`target: ${a.target ? describeUrl(url) : `a private embedded Postgres (${describeUrl(url)})`}`);
    if (!a.only || a.only === "collector") await collectorAlone(url, seconds);
    if (!a.only || a.only === "beside") await besideRun(url, seconds);
    if (!a.only || a.only === "waits") await samplerCost(url, seconds);
  } finally {
    await server?.stop();
  }
}

main().catch((err) => {
  console.error(`bench:telemetry: ${(err as Error).message}`);
  process.exit(1);
});
