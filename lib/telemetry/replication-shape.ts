// Replication as the telemetry records it (browser-safe shapes): per reading, each standby streaming from the
// target (pg_stat_replication joined to pg_replication_slots) and the slots no standby uses; over a window, each
// standby's lag figures and the events found in the readings (./replication.ts). Every field is optional or new, so
// samples and summaries stored before replication was recorded still parse.
import { z } from "zod";

/**
 * One standby (a walsender of the target) at a reading. Lags in bytes are the target's current WAL position less
 * the standby's write, flush and replay positions (pg_wal_lsn_diff). Lags in time are pg_stat_replication's
 * write_lag, flush_lag and replay_lag in ms: null when the standby has caught up and no WAL is being sent (the
 * server reports no lag time then), not 0.
 */
export const StandbyReading = z.object({
  /** Its application_name (the name synchronous_standby_names uses), or its slot's name when it gives none. */
  name: z.string(),
  /** streaming, catchup, startup, backup or stopping. */
  state: z.string(),
  /** sync, potential, async or quorum: whether commits wait for it (sync, quorum) or it would take over (potential). */
  syncState: z.string(),
  writeLagBytes: z.number().nullable(),
  flushLagBytes: z.number().nullable(),
  replayLagBytes: z.number().nullable(),
  writeLagMs: z.number().nullable(),
  flushLagMs: z.number().nullable(),
  replayLagMs: z.number().nullable(),
  /** Its replication slot, and the WAL the slot keeps on the target (current position less restart_lsn). */
  slot: z.string().optional(),
  retainedBytes: z.number().nullable().optional(),
});
export type StandbyReading = z.infer<typeof StandbyReading>;

/** A replication slot no connected standby uses: it still keeps WAL on the target until it is used or dropped. */
export const IdleSlot = z.object({
  slot: z.string(),
  /** physical or logical. */
  type: z.string(),
  retainedBytes: z.number().nullable(),
  /** pg_replication_slots.wal_status: reserved, extended, unreserved, lost. */
  walStatus: z.string().nullable().optional(),
});
export type IdleSlot = z.infer<typeof IdleSlot>;

/** Replication at one reading; absent when the target had neither a standby nor a slot. */
export const ReplicationReading = z.object({
  /** The target's WAL position in bytes from 0/0 (pg_current_wal_lsn; a standby's receive position on a standby). */
  lsn: z.number().nullable(),
  /** synchronous_standby_names as the reading's session saw it ("" when commits wait for no standby). */
  synchronousStandbyNames: z.string(),
  standbys: z.array(StandbyReading),
  idleSlots: z.array(IdleSlot),
});
export type ReplicationReading = z.infer<typeof ReplicationReading>;

/** The median and the largest of a figure over the seconds it was measured. */
export const Spread = z.object({ p50: z.number(), max: z.number() });
export type Spread = z.infer<typeof Spread>;

/** One standby over a window. */
export const StandbyFigures = z.object({
  name: z.string(),
  /** Its sync states in the order they were first seen (e.g. ["potential", "sync"]). */
  syncStates: z.array(z.string()),
  /** Seconds of the window it was seen, and seconds it was streaming. */
  seenSec: z.number(),
  streamingSec: z.number(),
  replayLagBytes: Spread.optional(),
  flushLagBytes: Spread.optional(),
  writeLagBytes: Spread.optional(),
  /** Over the readings where the server gave a lag time; `lagTimeNullSec` counts the seconds it gave none (caught up and idle). */
  replayLagMs: Spread.optional(),
  flushLagMs: Spread.optional(),
  writeLagMs: Spread.optional(),
  lagTimeNullSec: z.number(),
  retainedBytesMax: z.number().optional(),
});
export type StandbyFigures = z.infer<typeof StandbyFigures>;

const at = { atSec: z.number() };
const span = { fromSec: z.number(), toSec: z.number(), seconds: z.number(), ongoing: z.boolean() };

/**
 * Something that happened to replication, timed in seconds into the window (a change at the first reading that saw
 * it; a stretch from its first reading's interval start to its last's end; `ongoing`: still so at the window's end).
 */
export const ReplicationEvent = z.discriminatedUnion("kind", [
  /** A standby streaming at the previous reading was not (gone, or in another state). */
  z.object({ kind: z.literal("stopped"), standby: z.string(), ...at, syncState: z.string(), state: z.string().optional() }),
  /** A standby not streaming at the previous reading was (back, or new). */
  z.object({ kind: z.literal("started"), standby: z.string(), ...at, syncState: z.string() }),
  z.object({ kind: z.literal("sync-state"), standby: z.string(), ...at, from: z.string(), to: z.string() }),
  /** Commits waited for a synchronous standby (the run's backends on SyncRep) while none that could confirm them streamed. */
  z.object({
    kind: z.literal("replication-stall"),
    ...span,
    synchronousStandbyNames: z.string(),
    /** The run's backends waiting on SyncRep, per reading: the average over the stall and the most. */
    syncRepWaitsAvg: z.number(),
    syncRepWaitsMax: z.number(),
    /** The database's commits per second: the lowest second in it (read-only transactions still commit). */
    commitsPerSecMin: z.number().optional(),
  }),
  /** A standby's replay fell behind while WAL kept arriving and being flushed there. */
  z.object({
    kind: z.literal("replay-behind"),
    standby: z.string(),
    ...span,
    /** WAL flushed on the standby and not replayed, at the stretch's start and end, and the WAL it replayed meanwhile. */
    replayGapStartBytes: z.number(),
    replayGapEndBytes: z.number(),
    replayedBytes: z.number(),
    replayLagBytesMax: z.number(),
    replayLagMsMax: z.number().nullable(),
    writeLagBytesMax: z.number(),
    flushLagBytesMax: z.number(),
    writeLagMsMax: z.number().nullable(),
    flushLagMsMax: z.number().nullable(),
  }),
]);
export type ReplicationEvent = z.infer<typeof ReplicationEvent>;

/** Replication over a window: each standby, the slots no standby used, the waits for standbys, what happened. */
export const ReplicationWindow = z.object({
  /** synchronous_standby_names as last read ("" when commits wait for no standby). */
  synchronousStandbyNames: z.string(),
  standbys: z.array(StandbyFigures),
  idleSlots: z.array(z.object({ slot: z.string(), type: z.string(), retainedBytesMax: z.number().nullable(), seenSec: z.number() })),
  /** Share of all the run's backend readings (active or idle) waiting on IPC:SyncRep, 0–1. */
  syncRepShareOfRun: z.number(),
  /** The most of the run's backends waiting on SyncRep in one second (per reading). */
  syncRepWaitsMax: z.number(),
  /** In time order; at most REPLICATION_THRESHOLDS.maxEvents (`eventsDropped` counts the rest). */
  events: z.array(ReplicationEvent),
  eventsDropped: z.number().int().optional(),
});
export type ReplicationWindow = z.infer<typeof ReplicationWindow>;
