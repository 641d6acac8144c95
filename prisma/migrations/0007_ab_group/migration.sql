-- An A/B: N pairs of runs of one workload's baseline and modded variants, same load, same target, in a balanced
-- order (ABBA) recorded here so the A/B page shows the group together. Each run is an ordinary run; a deleted run
-- leaves its slot empty rather than the group.
CREATE TABLE "ab_group" (
  "id" TEXT PRIMARY KEY,
  "workload" TEXT NOT NULL,
  -- The config every run shares but its variant.
  "config" JSONB NOT NULL,
  "pairs" INTEGER NOT NULL,
  -- The runs in the order they were queued: [{pair, variant, runId}] (lib/compare/ab-order.ts).
  "runs" JSONB NOT NULL,
  "target_label" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
