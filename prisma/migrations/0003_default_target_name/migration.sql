-- One name for the default database (issue #8): `npm run bench --save` used to store runs on the embedded
-- Postgres as "embedded Postgres (127.0.0.1:<port>/pgbb_target)" while the app called the same database
-- "embedded default". Runs stored that way get the app's name (EMBEDDED_TARGET_NAME in lib/default-target.ts),
-- so both list, compare and "run again" alike.
UPDATE "run"
SET "target_label" = 'embedded default'
WHERE "target_id" IS NULL
  AND "target_label" ~ '^embedded Postgres \(127\.0\.0\.1:[0-9]+/pgbb_target\)$';
