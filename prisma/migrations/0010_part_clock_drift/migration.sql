-- A part carried by another runner: its clock minus the target's measured again once its load is done (by the
-- carrying runner, as target_offset_ms before it), so that the coordinator can say how far the two hosts' clocks
-- drifted apart over the run (the correction is applied once, at the start).
ALTER TABLE "run_part" ADD COLUMN "target_offset_end_ms" DOUBLE PRECISION;
