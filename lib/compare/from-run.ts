// The Comparable of a stored run (./build.ts): its summary, histograms and samples, and the facts of where it ran.
import { decodeHistogram, mergeEncoded, type Histogram } from "../measurement/histogram";
import type { LatencyStats } from "../measurement/metrics";
import { runnerLoadOf } from "../measurement/headline";
import { RunSummary } from "../measurement/summary";
import { SERVER_FIGURES, serverLine, verdictLine } from "../telemetry/report";
import type { TelemetryWindow } from "../telemetry/window";
import { type Comparable, type DistPoint, type Facts, type Metric, type Pcts, rateKey } from "./comparable";
import { comparedMetrics } from "./metrics";
import { durabilityLevel } from "./notes";
import { configCellsOf, loadGeneratorCell } from "./rows";
import { BACKOFF_LABELS, payloadBytesOf, throttleFact } from "../workloads/config";
import { groupsOf, histogramOf, latencyOf, readsPerGroup, throughputOf } from "../measurement/operations";
import { NONE, relevantSettings, settingsCell, workloadShort, NotComparable } from "./build-parts";
import { type SampleRecord, overTimeOf } from "./over-time";
import { queueFactsOf } from "./sustained";
import type { ClusterShape } from "../targets/replicated-shape";

/** Quantiles at 5 ticks per halving of the remaining tail (as HdrHistogram's percentile output), up to the last value. */
export function distributionPoints(h: Histogram): DistPoint[] {
  const n = h.totalCount;
  if (!n) return [];
  const out: DistPoint[] = [];
  for (let k = 0; ; k++) {
    const q = 1 - 0.5 ** (k / 5);
    if (1 / (1 - q) > n) break; // beyond this the histogram has fewer than one sample per step
    out.push({ q, ms: h.getValueAtPercentile(q * 100) / 1000 });
  }
  // Percentiles report their bucket's highest equivalent value, which can lie a hair above the exact max
  // (0.1% at 3 significant digits): the last point never dips below the one before it.
  out.push({ q: 1 - 1 / Math.max(n, 2), ms: Math.max(h.maxValue / 1000, out.length ? out[out.length - 1].ms : 0) });
  return out;
}

/** The cumulative histogram of a metric: stored under its name ("e2e"; runner/engine.ts merges the groups), or
 *  only per group ("e2e:g0"), then merged here. */
function histogramFor(s: RunSummary, m: Metric): Histogram | null {
  const whole = histogramOf(s.histograms, m);
  if (whole) return decodeHistogram(whole);
  const parts = groupsOf(s)
    .flatMap((g) => (g.histograms ? [histogramOf(g.histograms, m)] : []))
    .filter((h): h is string => !!h);
  return parts.length ? mergeEncoded(parts) : null;
}

/** A run's rates by declared operation (write and read are the broker's counters; a cache's get, set, … its
 *  own), as `<op>PerSec` (its own unit) and `<op>MiBPerSec`; an operation with nothing stored is left out (unknown). */
function runRates(s: RunSummary): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const { name } of comparedMetrics([s.workload]).rates) {
    const t = throughputOf(s, name);
    if (!t) continue;
    out[rateKey(name, "items")] = t.perSecond;
    out[rateKey(name, "MiB")] = t.mibPerSec;
  }
  return out;
}

/** A run's compared latencies: the summary's percentiles, the mean of the merged histogram (the summary's
 *  own mean where the histogram cannot be read), and the distribution curve. */
function runLatencies(s: RunSummary): { latency: Record<Metric, Pcts>; distribution: Partial<Record<Metric, DistPoint[]>> } {
  const latency: Record<Metric, Pcts> = {};
  const distribution: Partial<Record<Metric, DistPoint[]>> = {};
  for (const { name: m } of comparedMetrics([s.workload]).latencies) {
    const l = latencyOf(s, m);
    latency[m] = pcts(l);
    try {
      const h = histogramFor(s, m);
      if (h) {
        distribution[m] = distributionPoints(h);
        if (h.totalCount) latency[m].avg = h.mean / 1000;
      }
    } catch {
      // An unreadable histogram leaves the curve out; the summary's percentiles are still shown.
    }
  }
  return { latency, distribution };
}

const pcts = (l: LatencyStats | undefined): Pcts =>
  l ? { p50: l.p50, p95: l.p95, p99: l.p99, p999: l.p999, max: l.max, avg: l.count ? l.mean : null } : { ...NONE };

export interface RunRecord {
  id: string;
  status: string;
  createdAt: Date | string;
  targetLabel: string;
  summary: unknown;
  /** Its name (lib/runs/labels.ts): the comparison calls it by it; runs without one by their id. */
  name?: string | null;
}

// Runs recorded before the manifest kept the server's address: the target's label says whether it was local
// (the embedded target is "embedded default"; older CLI runs said "embedded Postgres (…)" until migration 0003).
const LOCAL_LABEL = /^(embedded\b|localhost|127\.|\[?::1)/i;
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Whether Postgres ran on the runner's machine: from the address the runner reached it at, else the label. */
export function ranOnRunnerMachine(serverAddress: string | null | undefined, targetLabel: string): boolean {
  if (serverAddress === undefined) return LOCAL_LABEL.test(targetLabel);
  return serverAddress === null || LOOPBACK.test(serverAddress);
}

export function fromRun(run: RunRecord, samples: SampleRecord[] = []): Comparable {
  if (run.status !== "completed") throw new NotComparable(`${run.id} is ${run.status}: only completed runs have a summary to compare`);
  const parsed = RunSummary.safeParse(run.summary);
  if (!parsed.success) throw new NotComparable(`${run.id} has no readable summary (${parsed.error.issues[0]?.message ?? "invalid"})`);
  const s = parsed.data;
  const mf = s.manifest;
  const shared = ranOnRunnerMachine(mf.serverAddress, run.targetLabel);
  const settings = relevantSettings(mf.serverSettings);
  const syncNames = mf.serverSettings.synchronous_standby_names?.replace(/^'|'$/g, "");
  // The embedded replicated target records its nodes; any other replicated target only its standby names.
  const cluster = mf.cluster ? clusterFacts(mf.cluster) : null;
  const replication = cluster?.replication ?? (syncNames ? `synchronous standby: ${syncNames}` : null);
  // The hardware is known only when Postgres ran beside the runner; a remote target's is not recorded (null).
  const serverDescription = shared ? `this machine (${mf.runnerHost}, ${mf.runnerCores} cores, ${mf.runnerCpuModel}), shared by the runner and Postgres` : null;
  const [synchronousCommit, fsync] = [mf.serverSettings.synchronous_commit ?? "on", mf.serverSettings.fsync ?? "on"];
  const flags: string[] = [];
  if (!s.verification.ok) flags.push(`verification found problems: ${s.verification.problems.join("; ") || "see the run page"}`);
  const runner = runnerLoadOf(s).text; // the runner's load by its role: the limit, or a caution on the latencies
  if (runner) flags.push(runner);
  const facts: Facts = {
    serverCores: shared ? mf.runnerCores : null,
    sharedMachine: shared ? true : null, // a remote address could still be this machine's: unknown, not "no"
    serverDescription,
    postgresVersion: mf.postgresVersion,
    nodes: cluster?.nodes ?? (replication ? null : 1),
    replication,
    placement: cluster?.placement ?? null,
    synchronousCommit,
    fsync,
    durability: durabilityLevel(synchronousCommit, fsync, !!replication),
    settings,
    durationSeconds: s.config.durationSeconds,
    // Workloads without a write throttle or a payload (Yong's request workloads, DBOS's) have neither.
    throttleWritesPerSec: throttleFact(s.config),
    payloadBytes: payloadBytesOf(s.config),
    warmupExcluded: s.window.warmupSeconds > 0,
    rateDivisor: "measured window",
    e2eClock: mf.e2eClock.split(/ \(|:/)[0],
    // Absent in runs recorded before the back-off was a setting: those slept the nominal back-off.
    backoff: mf.backoff ?? "nominal",
    measuredThrough: null,
    effects: [],
    flags,
  };
  const when = typeof run.createdAt === "string" ? run.createdAt : run.createdAt.toISOString();
  const notes = [
    `Measured by this product: rates over the real measured window (${s.window.measuredSeconds.toFixed(1)} s), ${s.window.warmupSeconds > 0 ? `after ${s.window.warmupSeconds} s of warm-up that is excluded` : "no warm-up"}; percentiles from the run's HDR histograms.`,
    ...(readsPerGroup(s.config.kind) && groupsOf(s).length > 1
      ? [`Read msg/s sums ${groupsOf(s).length} consumer groups (each message is read once per group).`]
      : []),
    `End-to-end clock: ${mf.e2eClock}.`,
    ...(s.notes ?? []),
  ];
  return {
    key: run.id,
    kind: "run",
    badge: "measured",
    label: `${run.name || run.id} · ${workloadShort(s.config)}`,
    href: `/runs/${run.id}`,
    workload: s.workload,
    when,
    config: configCellsOf(s.config.kind, s.config as Record<string, unknown>, 1),
    annotations: {},
    env: {
      numbers: "measured here",
      server: serverDescription ?? `target "${run.targetLabel}" (hardware not recorded)`,
      serverCores: facts.serverCores,
      client: loadGeneratorCell(mf),
      postgresVersion: mf.postgresVersion,
      topology: cluster?.topology ?? replication ?? "no synchronous standby",
      synchronousCommit,
      fsync,
      settings: settingsCell(settings),
      maxConnections: mf.maxConnections,
      rateDivisor: `measured window (${s.window.measuredSeconds.toFixed(1)} s)`,
      // The manifest explains the clock at length; the table shows its name.
      e2eClock: mf.e2eClock.split(/ \(|:/)[0],
      backoff: mf.backoff ? `${mf.backoff}: ${BACKOFF_LABELS[mf.backoff].label}` : "nominal (recorded before the back-off was a setting)",
      limitedBy: s.telemetry ? verdictLine(s.telemetry) : null,
      serverDid: s.telemetry?.window ? serverLine(s.telemetry.window) : null,
    },
    facts,
    throughput: runRates(s),
    ...runLatencies(s),
    points: {},
    overTime: overTimeOf(samples),
    notes,
    ...(s.telemetry?.window ? { server: serverFigures(s.telemetry.window) } : {}),
    ...queueOf(s),
  };
}

/** What a run on the embedded replicated target says of its replication: its nodes, as a reference names them, and where they were. */
function clusterFacts(c: ClusterShape) {
  const nodes = 1 + c.standbys.length;
  const d = c.delay;
  const network = d ? `a relay adding ${d.askedMs} ms each way between them (measured ${d.addedOneWayMs} ms)` : "no network between them";
  const placement = `${c.where === "embedded, one host" ? "on one host" : c.where}, ${network}`;
  return {
    nodes,
    replication: `${nodes} nodes, synchronous_standby_names = ${c.synchronousStandbyNames}`,
    placement,
    topology: `${nodes} nodes ${placement}: ${c.primary} primary, standbys ${c.standbys.join(", ")}; synchronous_standby_names = ${c.synchronousStandbyNames}`,
  };
}

/** A queue-like run's facts for "Which sustained what" (./sustained-table.ts); nothing for other workloads. */
function queueOf(s: RunSummary): { queue?: ReturnType<typeof queueFactsOf> } {
  const q = queueFactsOf(s);
  return q ? { queue: q } : {};
}

/** A run's SERVER_FIGURES by key. */
function serverFigures(w: TelemetryWindow): Record<string, number | null> {
  return Object.fromEntries(SERVER_FIGURES.map((f) => [f.key, f.value(w)]));
}
