-- A synchronous commit ladder: one workload config run at each synchronous_commit level asked, with repeats, on one
-- target, in a balanced order (rounds up the levels, then down) recorded here so the ladder's page shows the set
-- together. Each run is an ordinary run; a deleted run leaves its slot empty rather than the group.
CREATE TABLE "ladder_group" (
  "id" TEXT PRIMARY KEY,
  "workload" TEXT NOT NULL,
  -- The config every run shares but its synchronousCommit.
  "config" JSONB NOT NULL,
  -- The levels asked, in the ladder's order (lib/sync-commit.ts).
  "levels" JSONB NOT NULL,
  "repeats" INTEGER NOT NULL,
  -- The runs in the order they were queued: [{round, level, runId}] (lib/ladder/order.ts).
  "runs" JSONB NOT NULL,
  "target_label" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
