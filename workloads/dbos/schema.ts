// DBOS's system tables as the library creates them, in the two profiles the workloads offer: 2.17 (the
// version behind the published figures: workflow_status with 31 columns and 9 indexes) and current (2.32:
// 38 columns, 15 indexes, partial indexes). Created inside the run's own schema, where the library would use
// `dbos`: index maintenance per write is most of what a workflow costs beyond a bare insert, so it must match.
// Also the value shapes the library writes (captured), so rows are as wide as its rows.
import { field } from "../fields";

export const DBOS_PROFILES = ["2.17", "current"] as const;
export type DbosProfile = (typeof DBOS_PROFILES)[number];

/** The `profile` field every DBOS workload has (flag --profile). */
export const profileField = field({
  name: "profile",
  label: "DBOS version profile",
  hint: "whose schema and statements: the version behind the published figures, or the current one",
  control: "select",
  default: "2.17",
  group: "load",
  options: [
    {
      value: "2.17",
      label: "2.17 (published figures)",
      description: "dbos 2.17.0, current when the figures were published: workflow_status with 31 columns and 9 indexes, its statements",
    },
    {
      value: "current",
      label: "current (2.32)",
      description: "dbos 2.32.0a3: 38 columns, 15 mostly partial indexes, the completion UPDATE guarded by status = 'PENDING'",
    },
  ],
  cli: { flag: "profile", ours: true, help: "DBOS version profile: 2.17 (default; the published figures' version) or current (2.32)" },
  compareLabel: "DBOS profile",
});

/** The 2.17 workflow_status columns, in the library's order (its first migration, then the later ones). */
const COLUMNS_217 = `
  workflow_uuid TEXT PRIMARY KEY, status TEXT, name TEXT, authenticated_user TEXT, assumed_role TEXT,
  authenticated_roles TEXT, request TEXT, output TEXT, error TEXT, executor_id TEXT,
  created_at BIGINT NOT NULL DEFAULT (EXTRACT(epoch FROM now()) * 1000.0)::bigint,
  updated_at BIGINT NOT NULL DEFAULT (EXTRACT(epoch FROM now()) * 1000.0)::bigint,
  application_version TEXT, application_id TEXT, class_name VARCHAR(255) DEFAULT NULL,
  config_name VARCHAR(255) DEFAULT NULL, recovery_attempts BIGINT DEFAULT 0, queue_name TEXT,
  workflow_timeout_ms BIGINT, workflow_deadline_epoch_ms BIGINT, inputs TEXT, started_at_epoch_ms BIGINT,
  deduplication_id TEXT, priority INT4 NOT NULL DEFAULT 0,
  queue_partition_key TEXT, forked_from TEXT, owner_xid TEXT DEFAULT NULL, parent_workflow_id TEXT DEFAULT NULL,
  serialization TEXT DEFAULT NULL, delay_until_epoch_ms BIGINT DEFAULT NULL,
  was_forked_from BOOLEAN NOT NULL DEFAULT FALSE`;

/** What 2.20 – 2.32 added. */
const COLUMNS_CURRENT_EXTRA = `,
  rate_limited BOOLEAN NOT NULL DEFAULT false, completed_at BIGINT, attributes JSONB, schedule_name TEXT,
  debounce_deadline_epoch_ms BIGINT, is_debounced BOOLEAN NOT NULL DEFAULT false, application_name TEXT`;

const OPERATION_OUTPUTS = (s: string, extra: string) => `
CREATE TABLE ${s}.operation_outputs (
  workflow_uuid TEXT NOT NULL REFERENCES ${s}.workflow_status(workflow_uuid) ON UPDATE CASCADE ON DELETE CASCADE,
  function_id INT4 NOT NULL, function_name TEXT NOT NULL DEFAULT '', output TEXT, error TEXT,
  child_workflow_id TEXT, started_at_epoch_ms BIGINT, completed_at_epoch_ms BIGINT, serialization TEXT${extra},
  PRIMARY KEY (workflow_uuid, function_id));
CREATE INDEX idx_operation_outputs_completed_at_function_name ON ${s}.operation_outputs (completed_at_epoch_ms, function_name);`;

/** The DDL of workflow_status and operation_outputs for `profile`, in schema `s` (quoted). */
export function dbosSchemaDdl(s: string, profile: DbosProfile): string {
  if (profile === "2.17")
    return `
CREATE TABLE ${s}.workflow_status (${COLUMNS_217});
ALTER TABLE ${s}.workflow_status ADD CONSTRAINT uq_workflow_status_queue_name_dedup_id UNIQUE (queue_name, deduplication_id);
CREATE INDEX workflow_status_created_at_index ON ${s}.workflow_status (created_at);
CREATE INDEX workflow_status_executor_id_index ON ${s}.workflow_status (executor_id);
CREATE INDEX workflow_status_status_index ON ${s}.workflow_status (status);
CREATE INDEX idx_workflow_status_queue_status_started ON ${s}.workflow_status (queue_name, status, started_at_epoch_ms);
CREATE INDEX idx_workflow_status_forked_from ON ${s}.workflow_status (forked_from);
CREATE INDEX idx_workflow_status_parent_workflow_id ON ${s}.workflow_status (parent_workflow_id);
CREATE INDEX idx_workflow_status_delayed ON ${s}.workflow_status (delay_until_epoch_ms) WHERE status = 'DELAYED';
${OPERATION_OUTPUTS(s, "")}`;
  return `
CREATE TABLE ${s}.workflow_status (${COLUMNS_217}${COLUMNS_CURRENT_EXTRA});
CREATE INDEX workflow_status_created_at_index ON ${s}.workflow_status (created_at);
CREATE INDEX idx_workflow_status_in_flight ON ${s}.workflow_status (queue_name, status, priority, created_at)
  WHERE status IN ('ENQUEUED', 'PENDING');
CREATE INDEX idx_workflow_status_partition_dequeue_v2 ON ${s}.workflow_status (queue_name, status, queue_partition_key, priority, created_at, workflow_uuid)
  WHERE status IN ('ENQUEUED', 'PENDING') AND queue_partition_key IS NOT NULL;
CREATE INDEX idx_workflow_status_pending ON ${s}.workflow_status (created_at) WHERE status = 'PENDING';
CREATE INDEX idx_workflow_status_failed ON ${s}.workflow_status (status, created_at)
  WHERE status IN ('ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED');
CREATE INDEX idx_workflow_status_rate_limited ON ${s}.workflow_status (queue_name, started_at_epoch_ms) WHERE rate_limited = true;
CREATE INDEX idx_workflow_status_started_at ON ${s}.workflow_status (started_at_epoch_ms) WHERE started_at_epoch_ms IS NOT NULL;
CREATE INDEX idx_workflow_status_completed_at ON ${s}.workflow_status (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX idx_workflow_status_delayed ON ${s}.workflow_status (delay_until_epoch_ms) WHERE status = 'DELAYED';
CREATE INDEX idx_workflow_status_forked_from ON ${s}.workflow_status (forked_from) WHERE forked_from IS NOT NULL;
CREATE INDEX idx_workflow_status_parent_workflow_id ON ${s}.workflow_status (parent_workflow_id) WHERE parent_workflow_id IS NOT NULL;
CREATE INDEX idx_workflow_status_schedule_name ON ${s}.workflow_status (schedule_name) WHERE schedule_name IS NOT NULL;
CREATE INDEX idx_workflow_status_attributes ON ${s}.workflow_status USING GIN (attributes) WHERE attributes IS NOT NULL;
CREATE UNIQUE INDEX uq_workflow_status_dedup_id ON ${s}.workflow_status (queue_name, deduplication_id) WHERE deduplication_id IS NOT NULL;
${OPERATION_OUTPUTS(s, ", application_name TEXT")}`;
}

/** Columns and indexes of workflow_status per profile, as the study counts them (the tests check the DDL against these). */
export const WORKFLOW_STATUS_SHAPE: Record<DbosProfile, { columns: number; indexes: number }> = {
  "2.17": { columns: 31, indexes: 9 },
  current: { columns: 38, indexes: 15 },
};

/**
 * The values the library writes (captured): pickled inputs `{"args": (), "kwargs": {}}`, the output of
 * `return 1`, a step's `return 0`, its serialization name, and the application name of the benchmark scripts.
 */
export const VALUES = {
  inputs: "gASVGAAAAAAAAAB9lCiMBGFyZ3OUKYwGa3dhcmdzlH2UdS4=",
  workflowOutput: "gARLAS4=",
  stepOutput: "gARLAC4=",
  serialization: "py_pickle",
  workflowName: "noop_workflow",
  stepWorkflowName: "steps_workflow",
  stepName: "noop_step",
  applicationId: "",
  applicationName: "dbos-bench",
  /** EXTRACT(epoch FROM now()) * this = ms: the library binds it. */
  msPerSecond: 1000,
} as const;
