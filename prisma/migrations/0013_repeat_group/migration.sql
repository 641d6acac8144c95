-- A repeated set: one workload config run N times back to back on one target (`--repeat N`, the New run form's
-- Repeat panel), recorded so the set's page shows each figure with its spread and the interval of its median. Each
-- run is an ordinary run; a deleted run leaves its slot empty rather than the group.
CREATE TABLE "repeat_group" (
  "id" TEXT PRIMARY KEY,
  "workload" TEXT NOT NULL,
  -- The config every run shares.
  "config" JSONB NOT NULL,
  "repeats" INTEGER NOT NULL,
  -- The runs' ids in the order they were queued.
  "runs" JSONB NOT NULL,
  "target_label" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
