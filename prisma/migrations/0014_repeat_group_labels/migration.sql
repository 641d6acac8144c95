-- Names, notes and tags (issue 33, as 0012_labels gave runs, A/Bs, ladders and ceiling searches) for the repeated
-- sets that 0013 added. Checked where they come in (lib/runs/labels.ts).
ALTER TABLE "repeat_group" ADD COLUMN "name" TEXT, ADD COLUMN "notes" TEXT, ADD COLUMN "tags" TEXT[] NOT NULL DEFAULT '{}';
