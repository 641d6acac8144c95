// The synchronous commit ladder's figures: for each level, over its completed repeats, the commit's latency (the
// operation the workload paces: a broker's write, a request workload's every request) and the end-to-end latency
// when the workload has one, at p50 and p99; the throughput; the share of the run's backends waiting on SyncRep;
// each standby's lag; and what a commit waited for. A level's percentile over its repeats comes from their merged
// histograms (never an average of percentiles); its interval is the 95 % t-interval of the repeats' own figures,
// as the A/B's (lib/compare/ab-stats.ts tInterval). Beside them, the 2016 ladder (lib/references/sync-commit-2016.ts).
// Browser-safe.
import { durabilityLevel } from "../compare/notes";
import { type Interval, tInterval } from "../compare/ab-stats";
import { latencyOf, throughputOf } from "../measurement/operations";
import { pooledLatency, pooledRate } from "../measurement/pooled";
import { replicationOf } from "../measurement/summary-replication";
import type { RunSummary } from "../measurement/summary";
import { type LadderReference, type LadderReferenceRow, referenceRowFor, SYNC_COMMIT_2016 } from "../references/sync-commit-2016";
import type { SyncCommitLevel } from "../sync-commit";
import { workloadDefinition } from "../workloads/config";
import { ladderOrderText, type LadderSlot } from "./order";

/** A figure of one level: pooled over its repeats, each repeat's own (in round order), and their interval. */
export interface LevelFigure {
  pooled: number | null;
  perRun: number[];
  /** The 95 % t-interval of the mean of perRun; null below two repeats. */
  ci: Interval | null;
}

/** A latency the ladder shows: the commit's (the paced operation) or the end-to-end delivery's. */
export interface LadderMeasure {
  /** Its declared name (latencyOf, histogramOf). */
  name: string;
  label: string;
  role: "commit" | "end-to-end";
}

/** One standby over a level's repeats: its sync states, the repeats' median lags (low–high) and the largest lag. */
export interface StandbyLag {
  name: string;
  syncStates: string[];
  replayMs: LagRange | null;
  flushMs: LagRange | null;
  writeMs: LagRange | null;
  replayBytesMax: number | null;
}
/** The lowest and highest of the repeats' own medians (never averaged), and the largest value any repeat saw. */
export interface LagRange {
  p50Low: number;
  p50High: number;
  max: number;
}

export interface LadderLevel {
  level: SyncCommitLevel;
  /** The completed runs counted, in round order. */
  runIds: string[];
  /** Per measure: p50 and p99. */
  latencies: { measure: LadderMeasure; p50: LevelFigure; p99: LevelFigure }[];
  /** Items per second of the commit operation. */
  throughput: LevelFigure;
  /** Share of the run's active backend readings waiting on SyncRep (0–1): null when no repeat recorded replication. */
  syncRepShare: LevelFigure | null;
  standbys: StandbyLag[];
  /** What a commit waited for (compare's durability words), from the level, fsync and a synchronous standby. */
  waitsFor: string;
  /** The 2016 row whose commit waited as this level's does, and both ladders' throughput relative to the base level. */
  reference: LadderReferenceRow | null;
  relative: { ours: number | null; reference: number | null } | null;
}

export interface LadderStats {
  workload: string;
  measures: LadderMeasure[];
  /** The commit operation's unit per second ("msg/s"). */
  rateUnit: string;
  repeats: number;
  order: string;
  levels: LadderLevel[];
  /** "none": the target had no standby; "some": it had; "unknown": no replication readings (telemetry off). */
  standbys: "none" | "some" | "unknown";
  /** The level the relative throughputs are of (the first with a published row). */
  base: SyncCommitLevel | null;
  notes: string[];
  reference: LadderReference;
}

/** The ladder's latencies for a workload: its paced operation's and its delivery's, as it declares them. */
export function ladderMeasures(config: Record<string, unknown> & { kind: string }): LadderMeasure[] {
  const def = workloadDefinition(config.kind);
  if (!def) return [];
  const op = def.metrics.operations.find((o) => o.name === def.pacing(config as never).operation && o.latency);
  const d = def.metrics.delivery;
  return [
    ...(op ? [{ name: op.name, label: op.label, role: "commit" as const }] : []),
    ...(d ? [{ name: d.name, label: d.label, role: "end-to-end" as const }] : []),
  ];
}

const figure = (pooled: number | null, perRun: (number | null | undefined)[]): LevelFigure => {
  const xs = perRun.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  return { pooled, perRun: xs, ci: xs.length === perRun.length ? tInterval(xs) : null };
};
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

function lagRange(figs: ({ p50: number; max: number } | undefined)[]): LagRange | null {
  const seen = figs.filter((f): f is { p50: number; max: number } => !!f);
  if (!seen.length) return null;
  return { p50Low: Math.min(...seen.map((f) => f.p50)), p50High: Math.max(...seen.map((f) => f.p50)), max: Math.max(...seen.map((f) => f.max)) };
}

/** Each standby seen in any repeat, in the order first seen. */
function standbyLags(ss: RunSummary[]): StandbyLag[] {
  const per = ss.map((s) => replicationOf(s)?.standbys ?? []);
  const names = [...new Set(per.flat().map((f) => f.name))];
  return names.map((name) => {
    const figs = per.map((list) => list.find((f) => f.name === name));
    const bytes = figs.flatMap((f) => (f?.replayLagBytes ? [f.replayLagBytes.max] : []));
    return {
      name,
      syncStates: [...new Set(figs.flatMap((f) => f?.syncStates ?? []))],
      replayMs: lagRange(figs.map((f) => f?.replayLagMs)),
      flushMs: lagRange(figs.map((f) => f?.flushLagMs)),
      writeMs: lagRange(figs.map((f) => f?.writeLagMs)),
      replayBytesMax: bytes.length ? Math.max(...bytes) : null,
    };
  });
}

/** Whether a commit could wait for a standby: synchronous_standby_names named one (the telemetry's, else the settings'). */
function syncStandbyNamed(ss: RunSummary[]): boolean {
  return ss.some((s) => !!(replicationOf(s)?.synchronousStandbyNames || s.manifest.serverSettings.synchronous_standby_names?.replace(/^'|'$/g, "")));
}

function levelOf(level: SyncCommitLevel, runs: { id: string; summary: RunSummary }[], measures: LadderMeasure[], commitOp: string | undefined): LadderLevel {
  const ss = runs.map((r) => r.summary);
  const latencies = measures.map((measure) => {
    const pooled = pooledLatency(ss, measure.name);
    const at = (k: "p50" | "p99") =>
      figure(
        pooled?.[k] ?? null,
        ss.map((s) => latencyOf(s, measure.name)?.[k]),
      );
    return { measure, p50: at("p50"), p99: at("p99") };
  });
  const throughput = commitOp
    ? figure(
        pooledRate(ss, commitOp),
        ss.map((s) => throughputOf(s, commitOp)?.perSecond),
      )
    : figure(null, []);
  const shares = ss.map((s) => replicationOf(s)?.syncRepShareOfActive);
  const recorded = shares.filter((v) => v !== undefined) as number[];
  // A share of equal-length windows: the repeats' mean is the pooled share.
  const syncRepShare = recorded.length ? figure(mean(recorded), shares) : null;
  const fsync = ss[0]?.manifest.serverSettings.fsync ?? "on";
  return {
    level,
    runIds: runs.map((r) => r.id),
    latencies,
    throughput,
    syncRepShare,
    standbys: standbyLags(ss),
    waitsFor: durabilityLevel(level, fsync, syncStandbyNamed(ss)),
    reference: referenceRowFor(level) ?? null,
    relative: null,
  };
}

/** Both ladders' throughput relative to the first level that has a published row (ours pooled, theirs as published). */
function withRelative(levels: LadderLevel[]): SyncCommitLevel | null {
  const base = levels.find((l) => l.reference && l.throughput.pooled);
  if (!base) return null;
  for (const l of levels)
    l.relative = {
      ours: l.throughput.pooled !== null ? l.throughput.pooled / base.throughput.pooled! : null,
      reference: l.reference ? l.reference.tps / base.reference!.tps : null,
    };
  return base.level;
}

/** The ladder of a group's completed runs; `slots` in the order they ran. */
export function ladderStats(
  slots: readonly LadderSlot[],
  runOf: (id: string) => { status: string; summary?: RunSummary | null } | null | undefined,
): LadderStats | null {
  const done = slots.flatMap((s) => {
    const r = runOf(s.runId);
    return r?.status === "completed" && r.summary ? [{ ...s, summary: r.summary }] : [];
  });
  const first = done[0]?.summary;
  if (!first) return null;
  const config = first.config as Record<string, unknown> & { kind: string };
  const measures = ladderMeasures(config);
  const commitOp = workloadDefinition(config.kind)?.pacing(config as never).operation;
  const asked = [...new Set(slots.map((s) => s.level))];
  const levels = asked.flatMap((level) => {
    const runs = done.filter((d) => d.level === level).sort((a, b) => a.round - b.round);
    return runs.length
      ? [
          levelOf(
            level,
            runs.map((r) => ({ id: r.runId, summary: r.summary })),
            measures,
            commitOp,
          ),
        ]
      : [];
  });
  const base = withRelative(levels);
  const telemetry = done.filter((d) => d.summary.telemetry);
  const standbys = !telemetry.length ? "unknown" : telemetry.some((d) => replicationOf(d.summary)?.standbys.length) ? "some" : "none";
  const repeats = Math.max(...slots.map((s) => s.round));
  const rateUnit = workloadDefinition(config.kind)?.pacing(config as never).unit ?? "item";
  return {
    ...{ workload: config.kind, measures, rateUnit: `${rateUnit}/s`, repeats, order: ladderOrderText(slots), levels, standbys, base },
    notes: ladderNotes(slots, done, standbys, `${rateUnit}/s`),
    reference: SYNC_COMMIT_2016,
  };
}

/** What stands beside the figures: no interval, levels or runs left out, a run without its level, no standbys. */
function ladderNotes(
  slots: readonly LadderSlot[],
  done: (LadderSlot & { summary: RunSummary })[],
  standbys: LadderStats["standbys"],
  perSec: string,
): string[] {
  const missing = slots.filter((s) => !done.some((d) => d.runId === s.runId));
  const wrong = done.filter((d) => d.summary.config.synchronousCommit !== d.level || d.summary.manifest.serverSettings.synchronous_commit !== d.level);
  const rounds = Math.max(...slots.map((s) => s.round));
  const paced = done[0] && (done[0].summary.config as { throttleWritesPerSec?: number }).throttleWritesPerSec;
  return [
    rounds < 2 ? "One repeat: no interval, so a difference between levels cannot be told from noise; run 3 repeats or more." : null,
    missing.length ? `Left out: ${missing.map((s) => `${s.level} in round ${s.round} (${s.runId})`).join(", ")}: the run did not complete.` : null,
    wrong.length
      ? `Not at its level: ${wrong.map((d) => `${d.runId} (${d.level})`).join(", ")}: its sessions' synchronous_commit differs; its figures are not this level's.`
      : null,
    standbys === "none"
      ? "No standbys: the target had none, so remote_write, on and remote_apply waited for the local WAL flush only, exactly as local did, and there is no lag to show."
      : null,
    standbys === "unknown"
      ? "No replication readings (telemetry off, or runs stored before it was recorded): the SyncRep waits and the standbys' lag are unknown."
      : null,
    paced
      ? `Paced at ${paced.toLocaleString("en-US")} ${perSec}: while every level keeps up, the throughput is the rate asked and the cost shows in the latencies.`
      : null,
  ].filter((n): n is string => n !== null);
}
