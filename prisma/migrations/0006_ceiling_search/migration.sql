-- A ceiling search: a sequence of constant-rate runs of one workload against one target, each judged
-- sustained or not, ending at the highest sustained rate. It has a run's life-cycle (status, runner, cancel)
-- but not a run's single summary: its steps are stored as they finish, one row each, so a cancelled or
-- interrupted search keeps every step it completed.
CREATE TABLE "ceiling_search" (
  "id" TEXT PRIMARY KEY,
  "workload" TEXT NOT NULL,
  -- The workload config each step runs (its throttle, duration and warm-up are the step's).
  "config" JSONB NOT NULL,
  -- The goal, the metric, the step length and the search's bounds (lib/ceiling/settings.ts).
  "settings" JSONB NOT NULL,
  "target_id" TEXT REFERENCES "target"("id") ON DELETE SET NULL,
  "target_label" TEXT NOT NULL,
  "status" "run_status" NOT NULL DEFAULT 'queued',
  "source" "run_source" NOT NULL DEFAULT 'app',
  "runner_id" TEXT,
  "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "started_at" TIMESTAMPTZ(3),
  "finished_at" TIMESTAMPTZ(3),
  "error" TEXT,
  -- The step in progress (its rate, phase and latest one-second sample), for the live view.
  "progress" JSONB,
  -- How the search ended: the ceiling, its bracket, why it stopped.
  "result" JSONB
);
CREATE INDEX "ceiling_search_status_created_at_idx" ON "ceiling_search"("status", "created_at");

CREATE TABLE "ceiling_step" (
  "search_id" TEXT NOT NULL REFERENCES "ceiling_search"("id") ON DELETE CASCADE,
  "index" INTEGER NOT NULL,
  "rate" INTEGER NOT NULL,
  "sustained" BOOLEAN NOT NULL,
  -- The step as judged (runner/ceiling/driver.ts CeilingStep): its rates, latencies, runner load and verdict.
  "step" JSONB NOT NULL,
  -- The step's run summary, its histograms left out (the step keeps the percentiles it was judged on).
  "summary" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("search_id", "index")
);
