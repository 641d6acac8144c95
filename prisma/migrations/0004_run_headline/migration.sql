-- The runs list (GET /api/runs, /runs) shows six numbers of a finished run's summary. Reading them from the
-- summary meant reading every run's whole summary (tens of kB with its base64 histograms): they are kept in a
-- column of their own, written when the run finishes (lib/runs.ts finishRun), and filled here for stored runs.
ALTER TABLE "run" ADD COLUMN "headline" JSONB;

UPDATE "run"
SET "headline" = jsonb_build_object(
  'writeMsgPerSec', "summary" #> '{writes,msgPerSec}',
  'writeMiBPerSec', "summary" #> '{writes,mibPerSec}',
  'readMsgPerSec', "summary" #> '{reads,msgPerSec}',
  'readMiBPerSec', "summary" #> '{reads,mibPerSec}',
  'e2eP99Ms', "summary" #> '{latencyMs,e2e,p99}',
  'verified', "summary" #> '{verification,ok}')
WHERE "summary" IS NOT NULL;
