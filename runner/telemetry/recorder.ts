// One run's telemetry, as the engine uses it: the collector started once the run's connections are open, one
// reading taken at each of the engine's own ticks (so a reading covers the same interval as the engine's
// sample it is attached to, and falls in the same phase), the measured window aggregated as it goes
// (constant memory), and at the end the window and the verdict for the summary. Telemetry never fails a run:
// a collector that cannot connect (the target's connection limit reached, say) or loses its connection leaves
// the reason in info.missing and the run goes on.
import type { Phase } from "../../lib/measurement/metrics";
import { explainPgError } from "../../lib/targets/pgurl";
import type { RunTelemetry } from "../../lib/telemetry/report";
import type { TelemetryInfo, TelemetrySample } from "../../lib/telemetry/shape";
import { verdictOf, type VerdictInput } from "../../lib/telemetry/verdict";
import { WindowAccumulator } from "../../lib/telemetry/window";
import type { TargetClient } from "../core/pg/pgclient";
import { TelemetryCollector } from "./collector";

/** How long an engine sample waits for its reading before going out without one (the reading still counts in the window). */
export const READING_WAIT_MS = 300;

export class TelemetryRecorder {
  private collector?: TelemetryCollector;
  private failedInfo?: TelemetryInfo;
  private acc = new WindowAccumulator();
  private measuredAutovacuums = 0;

  private constructor() {}

  /** Starts the collector (its baseline reading) for a run whose schema and connections exist; never throws. */
  static async start(
    url: string,
    schema: string,
    /** The run's backends' pids, or a reading of them (a run whose loops reconnect gets new ones). */
    pids: readonly number[] | (() => readonly number[]),
    log: (line: string) => void = () => undefined,
    track?: (tc: TargetClient) => void,
    /** The runner's processes besides this one (a run's parts): their CPU is the runner's, not other processes'. */
    runnerPids: () => readonly number[] = () => [],
    /** The run restarts its target: the collector opens its connection again after it (./collector.ts reconnects). */
    reconnects = false,
  ): Promise<TelemetryRecorder> {
    const r = new TelemetryRecorder();
    try {
      r.collector = await TelemetryCollector.start(url, {
        schema,
        runPids: typeof pids === "function" ? pids : () => pids,
        runnerPids,
        log,
        intervalMs: 0,
        track,
        reconnects,
      });
    } catch (err) {
      const reason = `telemetry could not connect to the target: ${explainPgError(err)}; the run went on without it`;
      log(reason);
      r.failedInfo = { serverVersionNum: 0, monitor: false, host: { available: false, reason: "no telemetry connection" }, missing: [reason] };
    }
    return r;
  }

  /**
   * At an engine tick: takes the reading of the interval that just ended (in `phase`), counts it in the window
   * when that interval was measured, and resolves with it, or with undefined when it takes longer than
   * READING_WAIT_MS (or no reading could be taken).
   */
  tick(phase: Phase): Promise<TelemetrySample | undefined> {
    if (!this.collector) return Promise.resolve(undefined);
    const reading = this.collector.sampleNow().then((s) => {
      if (s && phase === "measuring") {
        this.acc.add(s);
        this.measuredAutovacuums += s.tables?.autovacuumRuns ?? 0;
      }
      return s;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), READING_WAIT_MS)));
    return Promise.race([reading, late]).finally(() => clearTimeout(timer));
  }

  /** Autovacuum runs of the run's tables in the measured window's readings so far: a long run ends on them
   *  (lib/workloads/long-run.ts). A reading that came late still counts here, once it came. */
  get autovacuumsMeasured(): number {
    return this.measuredAutovacuums;
  }

  /** Stops the collector; the measured window's aggregates and the verdict. */
  async finish(input: Omit<VerdictInput, "telemetry">): Promise<RunTelemetry> {
    await this.collector?.stop();
    const window = this.acc.result();
    const info = this.collector?.info ?? this.failedInfo!;
    return { info, ...(window ? { window } : {}), verdict: verdictOf({ ...input, telemetry: window }) };
  }

  /** Stops the collector without a result (a failed or cancelled run). */
  async stop(): Promise<void> {
    await this.collector?.stop();
  }
}
