-- Names, notes and tags (issue 33): what a person calls a run, an A/B, a ladder or a ceiling search, so a comparison
-- and the runs list tell them apart by more than their ids. All optional; runs stored before keep no name and no tags.
-- Their limits (name 120 characters, notes 10,000, at most 20 tags of letters, digits and - _ . :, each up to 40)
-- are checked where they come in (lib/runs/labels.ts), not here, so a later version may widen them without a migration.
ALTER TABLE "run" ADD COLUMN "name" TEXT, ADD COLUMN "notes" TEXT, ADD COLUMN "tags" TEXT[] NOT NULL DEFAULT '{}';
-- The runs list filters by one tag (tags @> ARRAY[tag]).
CREATE INDEX "run_tags_idx" ON "run" USING GIN ("tags");

ALTER TABLE "ab_group" ADD COLUMN "name" TEXT, ADD COLUMN "notes" TEXT, ADD COLUMN "tags" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "ladder_group" ADD COLUMN "name" TEXT, ADD COLUMN "notes" TEXT, ADD COLUMN "tags" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "ceiling_search" ADD COLUMN "name" TEXT, ADD COLUMN "notes" TEXT, ADD COLUMN "tags" TEXT[] NOT NULL DEFAULT '{}';
