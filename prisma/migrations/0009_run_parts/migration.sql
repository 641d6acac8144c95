-- Parts of a run carried by other runner processes ("agents", issue #23): the coordinating runner opens a row per
-- part it does not fork itself; any runner sharing this control store claims one (FOR UPDATE SKIP LOCKED), forks
-- the part and relays its messages through run_part_message, woken by NOTIFY on the channel pgbb_parts.
CREATE TYPE "run_part_status" AS ENUM ('open', 'claimed', 'ready', 'running', 'done', 'failed');

CREATE TABLE "run_part" (
  "run_id" TEXT NOT NULL,
  "part" INTEGER NOT NULL,
  "parts" INTEGER NOT NULL,
  "status" "run_part_status" NOT NULL DEFAULT 'open',
  "runner_id" TEXT,
  "host" TEXT,
  "pid" INTEGER,
  -- The carrying runner's control-store session: gone from pg_stat_activity when that runner died.
  "backend_pid" INTEGER,
  -- The coordinating runner's session: gone when it died, and the part's runner stops the part.
  "coordinator_backend_pid" INTEGER,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "claimed_at" TIMESTAMPTZ(3),
  "heartbeat_at" TIMESTAMPTZ(3),
  -- The start barrier (the coordinator's clock, as a time).
  "start_at" TIMESTAMPTZ(3),
  "start_skew_ms" DOUBLE PRECISION,
  -- The part's clock minus the target's (measured by the carrying runner), and minus the coordinator's (applied).
  "target_offset_ms" DOUBLE PRECISION,
  "target_uncertainty_ms" DOUBLE PRECISION,
  "clock_offset_ms" DOUBLE PRECISION,
  "clock_uncertainty_ms" DOUBLE PRECISION,
  "error" TEXT,
  CONSTRAINT "run_part_pkey" PRIMARY KEY ("run_id", "part"),
  CONSTRAINT "run_part_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "run_part_status_created_at_idx" ON "run_part"("status", "created_at");

-- The coordinator's ToPart and the part's FromPart messages (runner/parts/protocol.ts), unchanged, in order.
CREATE TABLE "run_part_message" (
  "id" BIGSERIAL NOT NULL,
  "run_id" TEXT NOT NULL,
  "part" INTEGER NOT NULL,
  "to_part" BOOLEAN NOT NULL,
  "body" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "run_part_message_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "run_part_message_run_id_part_fkey" FOREIGN KEY ("run_id", "part") REFERENCES "run_part"("run_id", "part") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "run_part_message_run_id_part_to_part_id_idx" ON "run_part_message"("run_id", "part", "to_part", "id");
