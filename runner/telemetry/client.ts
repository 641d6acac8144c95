// The client side of the verdict: the runner process's CPU, how busy its event loop was and the longest delay
// a timer saw, as deltas between readings. Node runs every loop on one thread, so "100% of one core" or an
// event loop busy all the time means the runner, not Postgres, set the pace.
import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from "node:perf_hooks";
import type { ClientRates } from "../../lib/telemetry/shape";

export class ClientProbe {
  private cpu = process.cpuUsage();
  private at = performance.now();
  private elu: EventLoopUtilization = performance.eventLoopUtilization();
  private delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  constructor() {
    this.delay.enable();
  }

  /** Rates since the previous reading (or since construction). */
  read(): ClientRates {
    const now = performance.now();
    const cpu = process.cpuUsage(this.cpu);
    const elu = performance.eventLoopUtilization(this.elu);
    const wallMs = Math.max(now - this.at, 1e-3);
    const out: ClientRates = {
      cpuPct: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
      eventLoopUtilization: elu.utilization,
      // The histogram's max is in ns; it stays 0 until a full resolution period passed.
      eventLoopDelayMaxMs: this.delay.count > 0 ? this.delay.max / 1e6 : 0,
    };
    this.cpu = process.cpuUsage();
    this.elu = performance.eventLoopUtilization();
    this.at = now;
    this.delay.reset();
    return out;
  }

  stop() {
    this.delay.disable();
  }
}
