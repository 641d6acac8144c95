-- A run's status, phase and source become enums: the database refuses a value the code does not know, and the
-- generated client types them. Stored runs keep their values; a value no version of the product wrote is
-- mapped to the nearest honest one (a status to 'failed' with the old value kept in the error, a phase to none)
-- rather than stopping the app's start on a row it cannot convert.
CREATE TYPE "run_status" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted');
CREATE TYPE "run_phase" AS ENUM ('setup', 'warmup', 'measuring', 'draining', 'verifying', 'done');
CREATE TYPE "run_source" AS ENUM ('app', 'cli', 'import');

UPDATE "run"
SET "error" = concat_ws('; ', "error", 'stored with status "' || "status" || '", which this version does not know'),
    "status" = 'failed'
WHERE "status" NOT IN ('queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted');
UPDATE "run" SET "phase" = NULL WHERE "phase" NOT IN ('setup', 'warmup', 'measuring', 'draining', 'verifying', 'done');
UPDATE "run" SET "source" = 'app' WHERE "source" NOT IN ('app', 'cli', 'import');
UPDATE "sample" SET "phase" = 'measuring' WHERE "phase" NOT IN ('setup', 'warmup', 'measuring', 'draining', 'verifying', 'done');

ALTER TABLE "run"
  ALTER COLUMN "status" DROP DEFAULT,
  ALTER COLUMN "status" TYPE "run_status" USING "status"::"run_status",
  ALTER COLUMN "status" SET DEFAULT 'queued',
  ALTER COLUMN "phase" TYPE "run_phase" USING "phase"::"run_phase",
  ALTER COLUMN "source" DROP DEFAULT,
  ALTER COLUMN "source" TYPE "run_source" USING "source"::"run_source",
  ALTER COLUMN "source" SET DEFAULT 'app';

ALTER TABLE "sample" ALTER COLUMN "phase" TYPE "run_phase" USING "phase"::"run_phase";
