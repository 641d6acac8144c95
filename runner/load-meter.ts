// The runner's own load meter (event-loop delay and CPU per sample and over the measured window), which the
// client-bound verdict (lib/measurement/runner-load.ts) judges.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { exposedDelayMs, isClientBound, type SampleRunnerLoad, type SummaryRunnerLoad } from "../lib/measurement/runner-load";

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
    if (measured) {
      this.windowCpuMicros += cpuMicros;
      this.windowSec += intervalSec;
      this.intervalMaxMs.push(loopDelayMs.max);
      // A phase's last interval can be a few ms long: its CPU share is noise, not a busy second.
      if (intervalSec >= 0.5) this.maxCpuCores = Math.max(this.maxCpuCores, cpuCores);
    }
    h.reset();
    return { loopDelayMs: round3(loopDelayMs), cpuCores: Math.round(cpuCores * 1000) / 1000 };
  }

  /** The measured window's numbers and verdict, judged against `main` (a latency's name and p99), if any. */
  summary(main: { metric: string; p99: number } | null): SummaryRunnerLoad {
    const w = this.window;
    const loopDelayMs = w.count
      ? { p50: nsToDelayMs(w.percentile(50)), p99: nsToDelayMs(w.percentile(99)), max: nsToDelayMs(w.max) }
      : { p50: 0, p99: 0, max: 0 };
    const exposed = exposedDelayMs(loopDelayMs.p99, this.intervalMaxMs, this.windowSec * 1000);
    const cpuCores = this.windowSec > 0 ? this.windowCpuMicros / 1e6 / this.windowSec : 0;
    return {
      loopDelayMs: round3(loopDelayMs),
      exposedDelayMs: Math.round(exposed * 1000) / 1000,
      cpuCores: Math.round(cpuCores * 1000) / 1000,
      maxCpuCores: Math.round(this.maxCpuCores * 1000) / 1000,
      clientBound: isClientBound({ delayMs: exposed, cpuCores, mainP99Ms: main?.p99 }),
      judgedAgainst: main,
    };
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

const round3 = (d: { p50: number; p99: number; max: number }) => ({
  p50: Math.round(d.p50 * 1000) / 1000,
  p99: Math.round(d.p99 * 1000) / 1000,
  max: Math.round(d.max * 1000) / 1000,
});
