// The statements of a queued workflow, from the DBOS library's captured texts (workloads/dbos/statements.ts),
// in the run's schema. The current profile's IN lists take as many parameters as there are ids, as SQLAlchemy
// expands them; everything else is the captured text as is.
import {
  APP_VERSION_CURRENT,
  COMPLETE_217,
  COMPLETE_CURRENT,
  DEQUEUE_SELECT_217,
  DEQUEUE_SELECT_CURRENT,
  DEQUEUE_UPDATE_217,
  DEQUEUE_UPDATE_CURRENT,
  ENQUEUE_217,
  ENQUEUE_CURRENT,
  inSchema,
  PARTITION_COUNT_217,
  PARTITION_DEQUEUE_CTE_CURRENT,
  PARTITION_DEQUEUE_SELECT_217,
  PARTITION_DEQUEUE_UPDATE_CURRENT,
  PARTITION_KEYS_217,
  PARTITION_LOCK_CURRENT,
  START_READ_217,
  START_READ_CURRENT,
} from "../dbos/statements";

/**
 * `sql` with its `workflow_uuid IN ($k::VARCHAR)` list grown to n parameters ($k … $k+n-1) and every later
 * parameter renumbered after them: the text SQLAlchemy sends for a list of n ids.
 */
export function expandIdList(sql: string, n: number): string {
  const m = /workflow_uuid IN \(\$(\d+)::VARCHAR\)/.exec(sql);
  if (!m) throw new Error("internal: no workflow_uuid IN list in the statement");
  if (n < 1) throw new Error("internal: an IN list needs at least one id");
  const k = Number(m[1]);
  const shifted = sql.replace(/\$(\d+)/g, (all, d: string) => (Number(d) > k ? `$${Number(d) + n - 1}` : all));
  const list = Array.from({ length: n }, (_, i) => `$${k + i}::VARCHAR`).join(", ");
  return shifted.replace(`workflow_uuid IN ($${k}::VARCHAR)`, `workflow_uuid IN (${list})`);
}

/** Every statement of the workload in the run's schema `s` (already quoted). */
export function qwSql(s: string) {
  const q = (sql: string) => inSchema(sql, s);
  const lists = (sql: string) => {
    const text = q(sql);
    const cache = new Map<number, string>();
    return (n: number) => {
      let t = cache.get(n);
      if (t === undefined) cache.set(n, (t = expandIdList(text, n)));
      return t;
    };
  };
  return {
    // dbos 2.17.0. The enqueue INSERT is also the start's write (ON CONFLICT: recovery_attempts + 1).
    insert217: q(ENQUEUE_217),
    status217: q(START_READ_217),
    dequeue217: q(DEQUEUE_SELECT_217),
    claim217: q(DEQUEUE_UPDATE_217),
    partitions217: q(PARTITION_KEYS_217),
    partitionRunning217: q(PARTITION_COUNT_217),
    partitionDequeue217: q(PARTITION_DEQUEUE_SELECT_217),
    complete217: q(COMPLETE_217),
    // dbos 2.32 (current)
    insertCurrent: q(ENQUEUE_CURRENT),
    appVersionCurrent: q(APP_VERSION_CURRENT),
    dequeueCurrent: q(DEQUEUE_SELECT_CURRENT),
    claimCurrent: lists(DEQUEUE_UPDATE_CURRENT),
    partitionHeadsCurrent: q(PARTITION_DEQUEUE_CTE_CURRENT),
    partitionLockCurrent: lists(PARTITION_LOCK_CURRENT),
    partitionClaimCurrent: lists(PARTITION_DEQUEUE_UPDATE_CURRENT),
    statusesCurrent: lists(START_READ_CURRENT),
    completeCurrent: q(COMPLETE_CURRENT),
  };
}
export type QwSql = ReturnType<typeof qwSql>;

/** The columns of the enqueue/start INSERT (both profiles), in its VALUES order. */
const INSERT_COLUMNS = [
  "workflow_uuid",
  "status",
  "name",
  "authenticated_user",
  "assumed_role",
  "authenticated_roles",
  "output",
  "error",
  "executor_id",
  "application_version",
  "application_id",
  "class_name",
  "config_name",
  "recovery_attempts",
  "queue_name",
  "workflow_timeout_ms",
  "workflow_deadline_epoch_ms",
  "deduplication_id",
  "inputs",
  "priority",
  "queue_partition_key",
  "owner_xid",
  "parent_workflow_id",
  "serialization",
  "delay_until_epoch_ms",
] as const;
type InsertColumn = (typeof INSERT_COLUMNS)[number];

/** The INSERT's column values in order, NULL for every column not given (as the library binds them). */
export const insertColumns = (v: Partial<Record<InsertColumn, unknown>>): unknown[] => INSERT_COLUMNS.map((c) => v[c] ?? null);

/** The 2.17 INSERT's ON CONFLICT parameters: ms per second, the statuses that keep recovery_attempts, its increment. */
export const onConflict217 = (increment: 0 | 1): unknown[] => [1000, "ENQUEUED", "DELAYED", increment];

/** The current INSERT's further columns (attributes, schedule_name, debounce_deadline_epoch_ms, is_debounced,
 *  application_name) and its ON CONFLICT's ms per second. */
export const currentTail = (applicationName: string): unknown[] => ["null", null, null, false, applicationName, 1000];

/** The most ids the library puts in one IN list (its chunk); the current profile's claims never reach it at the default concurrency. */
export const IN_CHUNK = 4096;
