// The client side of the verdict, read at each telemetry reading: the runner's CPU and longest event-loop delay
// (the runner-load meter's, runner/load-meter.ts, so they are the numbers the client-bound check uses) and how busy
// its event loop was (performance.eventLoopUtilization: on a machine shared with other work, a busy loop can get
// far less than a core of CPU, so CPU alone misses it). Node runs every loop on one thread, so a loop busy all
// the time means the runner, not Postgres, set the pace.
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import type { ClientRates } from "../../lib/telemetry/shape";
import { clock } from "../core/timing";
import { RunnerLoadMeter } from "../load-meter";

export class ClientProbe {
  private meter = new RunnerLoadMeter();
  private at = clock();
  private elu: EventLoopUtilization = performance.eventLoopUtilization();

  /** Rates since the previous reading (or since construction). */
  read(): ClientRates {
    const now = clock();
    const load = this.meter.tick(false, Math.max(now - this.at, 1e-3) / 1000);
    const elu = performance.eventLoopUtilization(this.elu);
    this.elu = performance.eventLoopUtilization();
    this.at = now;
    // Starvation, as the kernel counts it: time the loop's thread could have run and did not get a CPU (the
    // meter's, so the live verdict reads the number the one client rule reads).
    const waited = load.runQueueWaitMsPerSec;
    return {
      cpuPct: 100 * load.cpuCores,
      eventLoopUtilization: elu.utilization,
      eventLoopDelayMaxMs: load.loopDelayMs.max,
      ...(waited !== undefined ? { runQueueWaitMsPerSec: waited } : {}),
    };
  }

  stop() {
    this.meter.stop();
  }
}
