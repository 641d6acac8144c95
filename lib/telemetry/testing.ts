// For the verdict's tests: one TelemetryWindow for the rules that read it (a quiet default each test changes where
// it matters), and a verdict explained line by line for a failed assertion's message.
import type { Verdict } from "./verdict";
import type { TelemetryWindow } from "./window";

/** A quiet window: 10 s of 10 connections, mostly idle, nothing limiting. `over` replaces whole fields. */
export function windowOf(over: Partial<TelemetryWindow> = {}): TelemetryWindow {
  return {
    seconds: 10,
    samples: 10,
    runConnections: 10,
    runActiveShare: 0.1,
    runIdleShare: 0.9,
    runIdleInTxShare: 0,
    runWaitShares: { CPU: 1 },
    otherBackends: 0,
    otherActive: 0,
    otherWaitShares: {},
    lockWaitsAvg: 0,
    lockWaitsMax: 0,
    runLockWaitsAvg: 0,
    host: { cpuBusyPct: 20, iowaitPct: 0, serverCpuCores: 0.2, cores: 2, diskReadBytesPerSec: 0, diskWriteBytesPerSec: 0, diskBusyPct: 5 },
    client: { cpuPct: 20, eventLoopUtilization: 0.2, eventLoopDelayMaxMs: 12 },
    overhead: { statementsPerSec: 6, msPerSample: 2, msPerSampleMax: 4 },
    ...over,
  };
}

/** A verdict's statement, then each rule with evidence: matched or not, every number beside its threshold. */
export const explainVerdict = (v: Verdict) =>
  `${v.statement}\n${v.findings
    .filter((f) => f.evidence.length)
    .map(
      (f) =>
        `${f.category} ${f.matched ? "MATCHED" : "no"}: ${f.evidence.map((e) => `${e.what} ${+e.value.toFixed(3)}${e.cmp ? ` ${e.cmp} ${e.threshold}${e.holds === undefined ? "" : e.holds ? " ✓" : " ✗"}` : ""}`).join("; ")}`,
    )
    .join("\n")}`;

/** One evidence value of a rule's finding, by its label (exact, or matching). */
export const evidenceOf = (v: Verdict, category: string, what: string | RegExp) =>
  v.findings.find((f) => f.category === category)?.evidence.find((e) => (typeof what === "string" ? e.what === what : what.test(e.what)))?.value;
