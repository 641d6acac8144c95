// Replication in a telemetry reading (./reading.ts puts it in the reading's one round trip): each standby streaming
// from the target, from pg_stat_replication joined to pg_replication_slots by the slot's walsender, and the slots
// no connected standby uses, as one JSON value. Pure: the SQL and what it answered.
import type { IdleSlot, ReplicationReading, StandbyReading } from "../../lib/telemetry/replication-shape";

/** Lag in bytes from the target's position: its own WAL position, or on a standby (cascading) the WAL it received. */
const diff = (lsn: string) => `pg_wal_lsn_diff(cur.lsn, ${lsn})`;
const ms = (interval: string) => `EXTRACT(epoch FROM ${interval}) * 1000`;

/**
 * One JSON value: the position, synchronous_standby_names, the standbys and the idle slots (NULL before PostgreSQL
 * 10, which has no pg_current_wal_lsn or lag times). A role without pg_monitor sees the standbys' rows with their
 * state and positions NULL: they come back as such (`hidden`).
 */
export function replicationColumn(version: number): string {
  if (version < 100000) return "NULL::json";
  const walStatus = version >= 130000 ? "s.wal_status" : "NULL";
  return `(WITH cur AS (SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_receive_lsn() ELSE pg_current_wal_lsn() END AS lsn)
    SELECT json_build_object(
      'lsn', pg_wal_lsn_diff(cur.lsn, '0/0'),
      'names', current_setting('synchronous_standby_names'),
      'standbys', (SELECT coalesce(json_agg(json_build_object(
          'name', coalesce(nullif(r.application_name, ''), s.slot_name, r.pid::text), 'pid', r.pid, 'state', r.state, 'sync', r.sync_state,
          'wb', ${diff("r.write_lsn")}, 'fb', ${diff("r.flush_lsn")}, 'rb', ${diff("r.replay_lsn")},
          'wms', ${ms("r.write_lag")}, 'fms', ${ms("r.flush_lag")}, 'rms', ${ms("r.replay_lag")},
          'slot', s.slot_name, 'kept', ${diff("s.restart_lsn")}) ORDER BY r.application_name, r.pid), '[]'::json)
        FROM pg_stat_replication r LEFT JOIN pg_replication_slots s ON s.active_pid = r.pid),
      'slots', (SELECT coalesce(json_agg(json_build_object('slot', s.slot_name, 'type', s.slot_type, 'kept', ${diff("s.restart_lsn")},
          'status', ${walStatus}) ORDER BY s.slot_name), '[]'::json)
        FROM pg_replication_slots s WHERE s.active_pid IS NULL OR s.active_pid NOT IN (SELECT pid FROM pg_stat_replication)))
    FROM cur)`;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** A lag in bytes: the position is read first in the statement, and a standby may have confirmed a few bytes past
 *  it by the time its row is read, so a lag never goes below 0; null (no position: a standby not yet streaming) stays null. */
const lag = (v: unknown): number | null => {
  const x = num(v);
  return x === null ? null : Math.max(x, 0);
};

/**
 * The reading from the JSON value: undefined when the target has no standby, no slot and no
 * synchronous_standby_names (a single node: nothing recorded), or when the role may not see its standbys (`hidden`
 * counts them). The
 * telemetry's connection takes every value as text (runner/core/pg/pgclient.ts): the JSON comes as its text.
 */
export function replicationOf(value: unknown): { reading?: ReplicationReading; hidden: number } {
  const v = typeof value === "string" ? JSON.parse(value) : value;
  if (!v || typeof v !== "object") return { hidden: 0 };
  const o = v as { lsn: unknown; names: unknown; standbys: Record<string, unknown>[]; slots: Record<string, unknown>[] };
  const rows = o.standbys ?? [];
  const visible = rows.filter((r) => r.state !== null);
  const shared = sharedNames(visible);
  const standbys = visible.map(
    (r): StandbyReading => ({
      // Standbys that give no application_name of their own all read "walreceiver": told apart by slot, else pid.
      name: shared.has(String(r.name)) ? `${r.name} (${r.slot ? `slot ${r.slot}` : `pid ${r.pid}`})` : String(r.name),
      state: String(r.state),
      syncState: String(r.sync ?? "async"),
      writeLagBytes: lag(r.wb),
      flushLagBytes: lag(r.fb),
      replayLagBytes: lag(r.rb),
      writeLagMs: num(r.wms),
      flushLagMs: num(r.fms),
      replayLagMs: num(r.rms),
      ...(r.slot !== null && r.slot !== undefined ? { slot: String(r.slot), retainedBytes: lag(r.kept) } : {}),
    }),
  );
  const idleSlots = (o.slots ?? []).map(
    (s): IdleSlot => ({ slot: String(s.slot), type: String(s.type), retainedBytes: lag(s.kept), walStatus: s.status === null ? null : String(s.status) }),
  );
  const names = String(o.names ?? "");
  const hidden = rows.length - visible.length;
  // Standbys the role cannot see would read as none streaming (a stall that is not one): nothing is recorded.
  if (hidden > 0 || (!standbys.length && !idleSlots.length && !names)) return { hidden };
  return { reading: { lsn: num(o.lsn), synchronousStandbyNames: names, standbys, idleSlots }, hidden };
}

/** Names more than one standby gives. */
function sharedNames(rows: Record<string, unknown>[]): Set<string> {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(String(r.name), (seen.get(String(r.name)) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
}

/** What a role that cannot see the standbys' state and lag misses, and its remedy. */
export const hiddenStandbysNote = (n: number, role: string) =>
  `replication: ${n} standby${n === 1 ? "" : "s"} streaming from the target, but the role ${role} cannot see their state, sync state or lag (pg_stat_replication shows them only to pg_monitor): the run's waits for them (IPC:SyncRep) are still counted. Grant it with: GRANT pg_monitor TO ${role};`;
