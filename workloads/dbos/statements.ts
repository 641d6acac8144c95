// The statements the DBOS library issues, verbatim from our captures of dbos 2.17.0 (the version behind the
// published figures) and 2.32.0a3 (current), driven against PostgreSQL with log_statement = all
// (fixtures/README.md). SQLAlchemy's casts are kept: they fix the parameter types as the library sent them.
// Every text names the schema `dbos`; inSchema() puts the run's own schema there. The comment above each
// names the path of fixtures/dbos/statements.json it comes from; the statement-shape test checks that what
// the workloads send normalises to the capture.

/** The library's schema name, replaced by the run's schema (already quoted) in every statement. */
export function inSchema(sql: string, schema: string): string {
  return sql.replace(/(?<![\w"])dbos\./g, `${schema}.`);
}

/** How each transaction opens, as the library opened it (the direct-start path of 2.32 names its isolation level). */
export const BEGIN = "BEGIN";
export const BEGIN_READ_COMMITTED = "BEGIN ISOLATION LEVEL READ COMMITTED";
export const SET_REPEATABLE_READ = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ";
export const COMMIT = "COMMIT";

// 2.17 A_start_noop
export const START_217 =
  "INSERT INTO dbos.workflow_status (workflow_uuid, status, name, authenticated_user, assumed_role, authenticated_roles, output, error, executor_id, application_version, application_id, class_name, config_name, recovery_attempts, queue_name, workflow_timeout_ms, workflow_deadline_epoch_ms, deduplication_id, inputs, priority, queue_partition_key, owner_xid, parent_workflow_id, serialization, delay_until_epoch_ms) VALUES ($1::VARCHAR, $2::VARCHAR, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6::VARCHAR, $7::VARCHAR, $8::VARCHAR, $9::VARCHAR, $10::VARCHAR, $11::VARCHAR, $12::VARCHAR, $13::VARCHAR, $14::BIGINT, $15::VARCHAR, $16::BIGINT, $17::BIGINT, $18::VARCHAR, $19::VARCHAR, $20::INTEGER, $21::VARCHAR, $22::VARCHAR, $23::VARCHAR, $24::VARCHAR, $25::BIGINT) ON CONFLICT (workflow_uuid) DO UPDATE SET executor_id = $26::VARCHAR, updated_at = (EXTRACT(epoch FROM now()) * $27::INTEGER), recovery_attempts = CASE WHEN ((dbos.workflow_status.status NOT IN ($28::VARCHAR, $29::VARCHAR))) THEN dbos.workflow_status.recovery_attempts + $30::BIGINT ELSE dbos.workflow_status.recovery_attempts END RETURNING dbos.workflow_status.recovery_attempts, dbos.workflow_status.status, dbos.workflow_status.workflow_deadline_epoch_ms, dbos.workflow_status.name, dbos.workflow_status.class_name, dbos.workflow_status.config_name, dbos.workflow_status.queue_name, dbos.workflow_status.owner_xid, dbos.workflow_status.serialization";

// 2.17 A_start_noop
export const COMPLETE_217 =
  "UPDATE dbos.workflow_status SET status=$1::VARCHAR, output=$2::VARCHAR, error=$3::VARCHAR, updated_at=(EXTRACT(epoch FROM now()) * $4::INTEGER), deduplication_id=$5::VARCHAR WHERE dbos.workflow_status.workflow_uuid = $6::VARCHAR";

// 2.17 B_start_steps
export const STEP_STATUS = "SELECT dbos.workflow_status.status \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.workflow_uuid = $1::VARCHAR";

// 2.17 B_start_steps
export const STEP_OUTPUT =
  "SELECT dbos.operation_outputs.output, dbos.operation_outputs.error, dbos.operation_outputs.function_name, dbos.operation_outputs.child_workflow_id, dbos.operation_outputs.serialization \nFROM dbos.operation_outputs \nWHERE dbos.operation_outputs.workflow_uuid = $1::VARCHAR AND dbos.operation_outputs.function_id = $2::INTEGER";

// 2.17 B_start_steps
export const STEP_EXECUTOR = "SELECT dbos.workflow_status.executor_id \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.workflow_uuid = $1::VARCHAR";

// 2.17 B_start_steps
export const STEP_CHECKPOINT_217 =
  "INSERT INTO dbos.operation_outputs (workflow_uuid, function_id, function_name, output, error, started_at_epoch_ms, completed_at_epoch_ms, serialization) VALUES ($1::VARCHAR, $2::INTEGER, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6::BIGINT, $7::BIGINT, $8::VARCHAR) ON CONFLICT (workflow_uuid, function_id) DO UPDATE SET completed_at_epoch_ms = dbos.operation_outputs.completed_at_epoch_ms RETURNING dbos.operation_outputs.completed_at_epoch_ms";

// 2.17 C_enqueue
export const ENQUEUE_217 =
  "INSERT INTO dbos.workflow_status (workflow_uuid, status, name, authenticated_user, assumed_role, authenticated_roles, output, error, executor_id, application_version, application_id, class_name, config_name, recovery_attempts, queue_name, workflow_timeout_ms, workflow_deadline_epoch_ms, deduplication_id, inputs, priority, queue_partition_key, owner_xid, parent_workflow_id, serialization, delay_until_epoch_ms) VALUES ($1::VARCHAR, $2::VARCHAR, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6::VARCHAR, $7::VARCHAR, $8::VARCHAR, $9::VARCHAR, $10::VARCHAR, $11::VARCHAR, $12::VARCHAR, $13::VARCHAR, $14::BIGINT, $15::VARCHAR, $16::BIGINT, $17::BIGINT, $18::VARCHAR, $19::VARCHAR, $20::INTEGER, $21::VARCHAR, $22::VARCHAR, $23::VARCHAR, $24::VARCHAR, $25::BIGINT) ON CONFLICT (workflow_uuid) DO UPDATE SET updated_at = (EXTRACT(epoch FROM now()) * $26::INTEGER), recovery_attempts = CASE WHEN ((dbos.workflow_status.status NOT IN ($27::VARCHAR, $28::VARCHAR))) THEN dbos.workflow_status.recovery_attempts + $29::BIGINT ELSE dbos.workflow_status.recovery_attempts END RETURNING dbos.workflow_status.recovery_attempts, dbos.workflow_status.status, dbos.workflow_status.workflow_deadline_epoch_ms, dbos.workflow_status.name, dbos.workflow_status.class_name, dbos.workflow_status.config_name, dbos.workflow_status.queue_name, dbos.workflow_status.owner_xid, dbos.workflow_status.serialization";

// 2.17 C_enqueue
export const RESULT_POLL_217 =
  "SELECT dbos.workflow_status.status, dbos.workflow_status.output, dbos.workflow_status.error, dbos.workflow_status.serialization \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.workflow_uuid = $1::VARCHAR";

// 2.17 C_enqueue
export const DEQUEUE_SELECT_217 =
  "SELECT dbos.workflow_status.workflow_uuid \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND (dbos.workflow_status.application_version = $3::VARCHAR OR dbos.workflow_status.application_version IS NULL) ORDER BY dbos.workflow_status.created_at ASC FOR UPDATE SKIP LOCKED";

// 2.17 C_enqueue
export const DEQUEUE_UPDATE_217 =
  "UPDATE dbos.workflow_status SET status=$1::VARCHAR, executor_id=$2::VARCHAR, application_version=$3::VARCHAR, workflow_deadline_epoch_ms=CASE WHEN (dbos.workflow_status.workflow_timeout_ms IS NOT NULL AND dbos.workflow_status.workflow_deadline_epoch_ms IS NULL) THEN CAST(EXTRACT(epoch FROM now()) * $4::INTEGER AS BIGINT) + dbos.workflow_status.workflow_timeout_ms ELSE dbos.workflow_status.workflow_deadline_epoch_ms END, started_at_epoch_ms=$5::BIGINT WHERE dbos.workflow_status.workflow_uuid = $6::VARCHAR";

// 2.17 C_enqueue
export const START_READ_217 =
  "SELECT dbos.workflow_status.status, dbos.workflow_status.name, dbos.workflow_status.recovery_attempts, dbos.workflow_status.config_name, dbos.workflow_status.class_name, dbos.workflow_status.authenticated_user, dbos.workflow_status.authenticated_roles, dbos.workflow_status.assumed_role, dbos.workflow_status.queue_name, dbos.workflow_status.executor_id, dbos.workflow_status.created_at, dbos.workflow_status.updated_at, dbos.workflow_status.application_version, dbos.workflow_status.application_id, dbos.workflow_status.workflow_deadline_epoch_ms, dbos.workflow_status.workflow_timeout_ms, dbos.workflow_status.deduplication_id, dbos.workflow_status.priority, dbos.workflow_status.inputs, dbos.workflow_status.queue_partition_key, dbos.workflow_status.forked_from, dbos.workflow_status.parent_workflow_id, dbos.workflow_status.started_at_epoch_ms, dbos.workflow_status.serialization, dbos.workflow_status.delay_until_epoch_ms \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.workflow_uuid = $1::VARCHAR";

// 2.17 D_penqueue
export const PARTITION_COUNT_217 =
  "SELECT dbos.workflow_status.executor_id, count(*) AS task_count \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND dbos.workflow_status.queue_partition_key = $3::VARCHAR GROUP BY dbos.workflow_status.executor_id";

// 2.17 D_penqueue
export const PARTITION_DEQUEUE_SELECT_217 =
  "SELECT dbos.workflow_status.workflow_uuid \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND (dbos.workflow_status.application_version = $3::VARCHAR OR dbos.workflow_status.application_version IS NULL) AND dbos.workflow_status.queue_partition_key = $4::VARCHAR ORDER BY dbos.workflow_status.created_at ASC \n LIMIT $5::INTEGER FOR UPDATE NOWAIT";

// 2.32 (current) A_start_noop
export const START_CURRENT =
  "INSERT INTO dbos.workflow_status (workflow_uuid, status, name, authenticated_user, assumed_role, authenticated_roles, output, error, executor_id, application_version, application_id, class_name, config_name, recovery_attempts, queue_name, workflow_timeout_ms, workflow_deadline_epoch_ms, deduplication_id, inputs, priority, queue_partition_key, owner_xid, parent_workflow_id, serialization, delay_until_epoch_ms, attributes, schedule_name, debounce_deadline_epoch_ms, is_debounced, application_name) VALUES ($1::VARCHAR, $2::VARCHAR, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6::VARCHAR, $7::VARCHAR, $8::VARCHAR, $9::VARCHAR, $10::VARCHAR, $11::VARCHAR, $12::VARCHAR, $13::VARCHAR, $14::BIGINT, $15::VARCHAR, $16::BIGINT, $17::BIGINT, $18::VARCHAR, $19::VARCHAR, $20::INTEGER, $21::VARCHAR, $22::VARCHAR, $23::VARCHAR, $24::VARCHAR, $25::BIGINT, $26::JSONB, $27::VARCHAR, $28::BIGINT, $29, $30::VARCHAR) ON CONFLICT (workflow_uuid) DO UPDATE SET executor_id = $31::VARCHAR, updated_at = CAST(EXTRACT(epoch FROM now()) * $32::INTEGER AS BIGINT) RETURNING dbos.workflow_status.status, dbos.workflow_status.workflow_deadline_epoch_ms, dbos.workflow_status.name, dbos.workflow_status.class_name, dbos.workflow_status.config_name, dbos.workflow_status.queue_name, dbos.workflow_status.owner_xid, dbos.workflow_status.serialization";

// 2.32 (current) A_start_noop
export const COMPLETE_CURRENT =
  "UPDATE dbos.workflow_status SET status=$1::VARCHAR, output=$2::VARCHAR, error=$3::VARCHAR, updated_at=CAST(EXTRACT(epoch FROM now()) * $4::INTEGER AS BIGINT), deduplication_id=$5::VARCHAR, completed_at=CAST(EXTRACT(epoch FROM now()) * $4::INTEGER AS BIGINT) WHERE dbos.workflow_status.workflow_uuid = $6::VARCHAR AND dbos.workflow_status.status = $7::VARCHAR";

// 2.32 (current) B_steps
export const STEP_CHECKPOINT_CURRENT =
  "INSERT INTO dbos.operation_outputs (workflow_uuid, function_id, function_name, output, error, started_at_epoch_ms, completed_at_epoch_ms, serialization, application_name) VALUES ($1::VARCHAR, $2::INTEGER, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6::BIGINT, $7::BIGINT, $8::VARCHAR, $9::VARCHAR) ON CONFLICT (workflow_uuid, function_id) DO UPDATE SET completed_at_epoch_ms = dbos.operation_outputs.completed_at_epoch_ms RETURNING dbos.operation_outputs.completed_at_epoch_ms";

// 2.32 (current) C_enqueue
export const ENQUEUE_CURRENT =
  "INSERT INTO dbos.workflow_status (workflow_uuid, status, name, authenticated_user, assumed_role, authenticated_roles, output, error, executor_id, application_version, application_id, class_name, config_name, recovery_attempts, queue_name, workflow_timeout_ms, workflow_deadline_epoch_ms, deduplication_id, inputs, priority, queue_partition_key, owner_xid, parent_workflow_id, serialization, delay_until_epoch_ms, attributes, schedule_name, debounce_deadline_epoch_ms, is_debounced, application_name) VALUES ($1::VARCHAR, $2::VARCHAR, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6::VARCHAR, $7::VARCHAR, $8::VARCHAR, $9::VARCHAR, $10::VARCHAR, $11::VARCHAR, $12::VARCHAR, $13::VARCHAR, $14::BIGINT, $15::VARCHAR, $16::BIGINT, $17::BIGINT, $18::VARCHAR, $19::VARCHAR, $20::INTEGER, $21::VARCHAR, $22::VARCHAR, $23::VARCHAR, $24::VARCHAR, $25::BIGINT, $26::JSONB, $27::VARCHAR, $28::BIGINT, $29, $30::VARCHAR) ON CONFLICT (workflow_uuid) DO UPDATE SET updated_at = CAST(EXTRACT(epoch FROM now()) * $31::INTEGER AS BIGINT) RETURNING dbos.workflow_status.status, dbos.workflow_status.workflow_deadline_epoch_ms, dbos.workflow_status.name, dbos.workflow_status.class_name, dbos.workflow_status.config_name, dbos.workflow_status.queue_name, dbos.workflow_status.owner_xid, dbos.workflow_status.serialization";

// 2.32 (current) C_enqueue
export const APP_VERSION_CURRENT =
  "SELECT dbos.application_versions.version_name \nFROM dbos.application_versions \nWHERE dbos.application_versions.application_name IN ($1::VARCHAR) OR dbos.application_versions.application_name IS NULL ORDER BY dbos.application_versions.version_timestamp DESC \n LIMIT $2::INTEGER";

// 2.32 (current) C_enqueue
export const DEQUEUE_SELECT_CURRENT =
  "SELECT dbos.workflow_status.workflow_uuid \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND (dbos.workflow_status.application_version = $3::VARCHAR OR dbos.workflow_status.application_version IS NULL) AND (dbos.workflow_status.application_name IN ($4::VARCHAR) OR dbos.workflow_status.application_name IS NULL) ORDER BY dbos.workflow_status.priority ASC, dbos.workflow_status.created_at ASC \n LIMIT $5::INTEGER FOR UPDATE SKIP LOCKED";

// 2.32 (current) C_enqueue
export const DEQUEUE_UPDATE_CURRENT =
  "UPDATE dbos.workflow_status SET status=$1::VARCHAR, executor_id=$2::VARCHAR, updated_at=CAST(EXTRACT(epoch FROM now()) * $3::INTEGER AS BIGINT), application_version=$4::VARCHAR, recovery_attempts=(dbos.workflow_status.recovery_attempts + $5::BIGINT), workflow_deadline_epoch_ms=CASE WHEN (dbos.workflow_status.workflow_timeout_ms IS NOT NULL AND dbos.workflow_status.workflow_deadline_epoch_ms IS NULL) THEN $6::BIGINT + dbos.workflow_status.workflow_timeout_ms ELSE dbos.workflow_status.workflow_deadline_epoch_ms END, started_at_epoch_ms=CAST(EXTRACT(epoch FROM now()) * $7::INTEGER AS BIGINT), rate_limited=$8, application_name=$9::VARCHAR WHERE dbos.workflow_status.workflow_uuid IN ($10::VARCHAR) AND dbos.workflow_status.status = $11::VARCHAR AND (dbos.workflow_status.application_name IN ($12::VARCHAR) OR dbos.workflow_status.application_name IS NULL) RETURNING dbos.workflow_status.workflow_uuid";

// 2.32 (current) C_enqueue
export const START_READ_CURRENT =
  "SELECT dbos.workflow_status.workflow_uuid, dbos.workflow_status.status, dbos.workflow_status.name, dbos.workflow_status.recovery_attempts, dbos.workflow_status.config_name, dbos.workflow_status.class_name, dbos.workflow_status.authenticated_user, dbos.workflow_status.authenticated_roles, dbos.workflow_status.assumed_role, dbos.workflow_status.queue_name, dbos.workflow_status.executor_id, dbos.workflow_status.created_at, dbos.workflow_status.updated_at, dbos.workflow_status.application_version, dbos.workflow_status.application_id, dbos.workflow_status.workflow_deadline_epoch_ms, dbos.workflow_status.workflow_timeout_ms, dbos.workflow_status.deduplication_id, dbos.workflow_status.priority, dbos.workflow_status.inputs, dbos.workflow_status.queue_partition_key, dbos.workflow_status.forked_from, dbos.workflow_status.parent_workflow_id, dbos.workflow_status.started_at_epoch_ms, dbos.workflow_status.serialization, dbos.workflow_status.delay_until_epoch_ms, dbos.workflow_status.attributes, dbos.workflow_status.schedule_name, dbos.workflow_status.debounce_deadline_epoch_ms, dbos.workflow_status.is_debounced, dbos.workflow_status.application_name \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.workflow_uuid IN ($1::VARCHAR)";

// 2.32 (current) D_penqueue
export const PARTITION_DEQUEUE_CTE_CURRENT =
  "WITH RECURSIVE partitions(pk) AS \n(SELECT min(dbos.workflow_status.queue_partition_key) AS pk \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND dbos.workflow_status.status IN ('ENQUEUED', 'PENDING') AND (dbos.workflow_status.application_name IN ($3::VARCHAR) OR dbos.workflow_status.application_name IS NULL) AND dbos.workflow_status.queue_partition_key IS NOT NULL UNION ALL SELECT (SELECT min(dbos.workflow_status.queue_partition_key) AS min_1 \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND dbos.workflow_status.status IN ('ENQUEUED', 'PENDING') AND (dbos.workflow_status.application_name IN ($3::VARCHAR) OR dbos.workflow_status.application_name IS NULL) AND dbos.workflow_status.queue_partition_key > partitions.pk) AS anon_1 \nFROM partitions \nWHERE partitions.pk IS NOT NULL)\n SELECT head.workflow_uuid \nFROM (SELECT partitions.pk AS pk \nFROM partitions \nWHERE partitions.pk IS NOT NULL AND NOT (EXISTS (SELECT $4::INTEGER AS anon_2 \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $5::VARCHAR AND dbos.workflow_status.status = $6::VARCHAR AND dbos.workflow_status.status IN ('ENQUEUED', 'PENDING') AND dbos.workflow_status.queue_partition_key IS NOT NULL AND dbos.workflow_status.queue_partition_key = partitions.pk)) ORDER BY partitions.pk ASC \n LIMIT $7::INTEGER) AS chosen JOIN LATERAL (SELECT dbos.workflow_status.workflow_uuid AS workflow_uuid \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND dbos.workflow_status.status IN ('ENQUEUED', 'PENDING') AND (dbos.workflow_status.application_name IN ($3::VARCHAR) OR dbos.workflow_status.application_name IS NULL) AND dbos.workflow_status.queue_partition_key = chosen.pk AND (dbos.workflow_status.application_version = $8::VARCHAR OR dbos.workflow_status.application_version IS NULL) ORDER BY dbos.workflow_status.priority ASC, dbos.workflow_status.created_at ASC, dbos.workflow_status.workflow_uuid ASC \n LIMIT $9::INTEGER) AS head ON true ORDER BY chosen.pk ASC";

// 2.32 (current) D_penqueue
export const PARTITION_LOCK_CURRENT =
  "SELECT dbos.workflow_status.workflow_uuid \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.workflow_uuid IN ($1::VARCHAR) AND dbos.workflow_status.status = $2::VARCHAR AND dbos.workflow_status.queue_name = $3::VARCHAR AND dbos.workflow_status.queue_partition_key IS NOT NULL AND (dbos.workflow_status.application_version = $4::VARCHAR OR dbos.workflow_status.application_version IS NULL) AND (dbos.workflow_status.application_name IN ($5::VARCHAR) OR dbos.workflow_status.application_name IS NULL) FOR UPDATE SKIP LOCKED";

// 2.32 (current) D_penqueue
export const PARTITION_DEQUEUE_UPDATE_CURRENT =
  "UPDATE dbos.workflow_status SET status=$1::VARCHAR, executor_id=$2::VARCHAR, updated_at=CAST(EXTRACT(epoch FROM now()) * $3::INTEGER AS BIGINT), application_version=$4::VARCHAR, recovery_attempts=(dbos.workflow_status.recovery_attempts + $5::BIGINT), workflow_deadline_epoch_ms=CASE WHEN (dbos.workflow_status.workflow_timeout_ms IS NOT NULL AND dbos.workflow_status.workflow_deadline_epoch_ms IS NULL) THEN $6::BIGINT + dbos.workflow_status.workflow_timeout_ms ELSE dbos.workflow_status.workflow_deadline_epoch_ms END, started_at_epoch_ms=CAST(EXTRACT(epoch FROM now()) * $7::INTEGER AS BIGINT), rate_limited=$8, application_name=$9::VARCHAR WHERE dbos.workflow_status.workflow_uuid IN ($10::VARCHAR) AND dbos.workflow_status.status = $11::VARCHAR AND dbos.workflow_status.queue_name = $12::VARCHAR AND dbos.workflow_status.queue_partition_key IS NOT NULL AND (dbos.workflow_status.application_version = $13::VARCHAR OR dbos.workflow_status.application_version IS NULL) AND (dbos.workflow_status.application_name IN ($14::VARCHAR) OR dbos.workflow_status.application_name IS NULL) RETURNING dbos.workflow_status.workflow_uuid";

// 2.17: partition discovery before the per-partition dequeue (no workflow id bound, so not in the fixture's paths).
export const PARTITION_KEYS_217 =
  "SELECT DISTINCT dbos.workflow_status.queue_partition_key \nFROM dbos.workflow_status \nWHERE dbos.workflow_status.queue_name = $1::VARCHAR AND dbos.workflow_status.status = $2::VARCHAR AND dbos.workflow_status.queue_partition_key IS NOT NULL";
