// One run's telemetry, as the engine uses it: the collector started once the run's connections are open, the
// newest sample handed to each engine sample, the measured window aggregated as it goes (constant memory),
// and at the end the window and the verdict for the summary. Telemetry never fails a run: a collector that
// cannot connect (the target's connection limit reached, say) or loses its connection leaves the reason in
// info.missing and the run goes on.
import type { Phase } from "../../lib/measurement/metrics";
import { explainPgError } from "../../lib/targets/pgurl";
import type { RunTelemetry } from "../../lib/telemetry/report";
import type { TelemetryInfo, TelemetrySample } from "../../lib/telemetry/shape";
import { verdictOf, type VerdictInput } from "../../lib/telemetry/verdict";
import { WindowAccumulator } from "../../lib/telemetry/window";
import { TelemetryCollector } from "./collector";

export class TelemetryRecorder {
  private collector?: TelemetryCollector;
  private failedInfo?: TelemetryInfo;
  private acc = new WindowAccumulator();
  private phase: Phase = "setup";
  /** The phase when the previous sample was taken: a sample counts in the window only if its whole interval was measured. */
  private sampledIn: Phase = "setup";
  private fresh: TelemetrySample | undefined;

  private constructor() {}

  /** Starts the collector for a run whose schema and connections exist; never throws. */
  static async start(url: string, schema: string, pids: readonly number[], log: (line: string) => void = () => undefined): Promise<TelemetryRecorder> {
    const r = new TelemetryRecorder();
    try {
      r.collector = await TelemetryCollector.start(url, { schema, runPids: () => pids, log, onSample: (s) => r.onSample(s) });
    } catch (err) {
      const reason = `telemetry could not connect to the target: ${explainPgError(err)}; the run went on without it`;
      log(reason);
      r.failedInfo = { serverVersionNum: 0, monitor: false, host: { available: false, reason: "no telemetry connection" }, missing: [reason] };
    }
    return r;
  }

  setPhase(p: Phase) {
    this.phase = p;
  }

  private onSample(s: TelemetrySample) {
    if (this.phase === "measuring" && this.sampledIn === "measuring") this.acc.add(s);
    this.sampledIn = this.phase;
    this.fresh = s;
  }

  /** The newest sample not yet handed out (the engine attaches it to its own sample of that second). */
  take(): TelemetrySample | undefined {
    const s = this.fresh;
    this.fresh = undefined;
    return s;
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
