// The runner's own load meter (event-loop delay and CPU per sample and over the measured window), which the
// one client rule (lib/measurement/runner-load.ts CLIENT_RULE) judges: with how busy its loop was and how long
// its threads waited for a CPU, so starvation is measured, not guessed from a delay.
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from "node:perf_hooks";
import { exposedDelayMs, judgeClient, type SampleRunnerLoad, type SummaryRunnerLoad } from "../lib/measurement/runner-load";
import { readFileSync } from "node:fs";

/** monitorEventLoopDelay's sampling period (ms). Its readings include it; the meter takes it off. */
const LOOP_RESOLUTION_MS = 10;
const nsToDelayMs = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);

/**
 * The runner's own load: its event loop's delay (Node's monitorEventLoopDelay: one monitor read and reset every
 * sample, and one over the measured window, since Node cannot merge the first into a histogram) and its CPU per
 * interval (process.cpuUsage). Memory is two histograms and one number per measured second (the interval's
 * longest delay, for exposedDelayMs).
 */
export class RunnerLoadMeter {
  private readonly loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private readonly window = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private cpuMark = process.cpuUsage();
  private windowCpuMicros = 0;
  private windowSec = 0;
  private maxCpuCores = 0;
  private readonly intervalMaxMs: number[] = [];
  private elu: EventLoopUtilization = performance.eventLoopUtilization();
  private windowElu = { active: 0, idle: 0 };
  private waitNs = mainThreadWaitNs();
  /** The window's CPU wait (ns); undefined where the system does not tell (no /proc schedstat). */
  private windowWaitNs: number | undefined = this.waitNs !== undefined ? 0 : undefined;

  constructor() {
    this.loop.enable();
  }

  /** Ends an interval of `intervalSec` seconds: its numbers, folded into the window's when `measured`. */
  tick(measured: boolean, intervalSec: number): SampleRunnerLoad {
    const h = this.loop;
    const loopDelayMs = h.count
      ? { p50: nsToDelayMs(h.percentile(50)), p99: nsToDelayMs(h.percentile(99)), max: nsToDelayMs(h.max) }
      : { p50: 0, p99: 0, max: 0 };
    const cpu = process.cpuUsage(this.cpuMark);
    this.cpuMark = process.cpuUsage();
    const cpuMicros = cpu.user + cpu.system;
    const cpuCores = cpuMicros / 1e6 / Math.max(intervalSec, 1e-6);
    const elu = performance.eventLoopUtilization(this.elu);
    this.elu = performance.eventLoopUtilization();
    const waitNs = mainThreadWaitNs();
    const waitedNs = waitNs !== undefined && this.waitNs !== undefined ? Math.max(waitNs - this.waitNs, 0) : undefined;
    this.waitNs = waitNs;
    if (measured) {
      this.windowElu.active += elu.active;
      this.windowElu.idle += elu.idle;
      if (this.windowWaitNs !== undefined) this.windowWaitNs = waitedNs !== undefined ? this.windowWaitNs + waitedNs : undefined;
      this.windowCpuMicros += cpuMicros;
      this.windowSec += intervalSec;
      this.intervalMaxMs.push(loopDelayMs.max);
      // A phase's last interval can be a few ms long: its CPU share is noise, not a busy second.
      if (intervalSec >= 0.5) this.maxCpuCores = Math.max(this.maxCpuCores, cpuCores);
    }
    h.reset();
    return {
      loopDelayMs: round3(loopDelayMs),
      cpuCores: round(cpuCores),
      eventLoopUtilization: round(elu.utilization),
      ...(waitedNs !== undefined ? { runQueueWaitMsPerSec: round(waitedNs / 1e6 / Math.max(intervalSec, 1e-6)) } : {}),
    };
  }

  /**
   * The measured window's numbers and CLIENT_RULE's verdict on them, judged against `main` (the main latency's
   * name, p99 and p50: its p50 is the service time a delay is held against), if any.
   */
  summary(main: { metric: string; p99: number; p50: number } | null): SummaryRunnerLoad {
    const w = this.window;
    const loopDelayMs = w.count
      ? { p50: nsToDelayMs(w.percentile(50)), p99: nsToDelayMs(w.percentile(99)), max: nsToDelayMs(w.max) }
      : { p50: 0, p99: 0, max: 0 };
    const exposed = exposedDelayMs(loopDelayMs.p99, this.intervalMaxMs, this.windowSec * 1000);
    const cpuCores = this.windowSec > 0 ? this.windowCpuMicros / 1e6 / this.windowSec : 0;
    const eluTotal = this.windowElu.active + this.windowElu.idle;
    const numbers = {
      exposedDelayMs: round(exposed),
      cpuCores: round(cpuCores),
      ...(eluTotal > 0 ? { eventLoopUtilization: round(this.windowElu.active / eluTotal) } : {}),
      ...(this.windowWaitNs !== undefined && this.windowSec > 0 ? { runQueueWaitMsPerSec: round(this.windowWaitNs / 1e6 / this.windowSec) } : {}),
    };
    const clientBound = judgeClient({ ...numbers, serviceMs: main && main.p50 > 0 ? main.p50 : undefined }).bound;
    return { loopDelayMs: round3(loopDelayMs), ...numbers, maxCpuCores: round(this.maxCpuCores), clientBound, judgedAgainst: main, rule: "starvation" };
  }

  /** The measured window starts / ends (its delay histogram covers exactly it). */
  startWindow() {
    this.window.enable();
  }
  endWindow() {
    this.window.disable();
  }

  stop() {
    this.loop.disable();
    this.window.disable();
  }
}

/**
 * Nanoseconds the main thread (the one the event loop runs on) has spent runnable but not running, from
 * /proc/self/schedstat; undefined where the system does not tell. Only its wait delays the loop: helper threads
 * (GC, the libuv pool) waiting for a CPU would count many times over.
 */
function mainThreadWaitNs(): number | undefined {
  try {
    const wait = Number(readFileSync("/proc/self/schedstat", "utf8").split(" ")[1]);
    return Number.isFinite(wait) ? wait : undefined;
  } catch {
    return undefined;
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const round3 = (d: { p50: number; p99: number; max: number }) => ({
  p50: Math.round(d.p50 * 1000) / 1000,
  p99: Math.round(d.p99 * 1000) / 1000,
  max: Math.round(d.max * 1000) / 1000,
});
