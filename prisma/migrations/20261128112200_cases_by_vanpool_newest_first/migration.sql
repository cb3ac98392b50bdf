-- A vanpool's cases newest first: its open case, and the flagged vanpools in id order (replaces the index on vanpool_id alone).
-- DropIndex
DROP INDEX "cases_vanpool_id_idx";

-- CreateIndex
CREATE INDEX "cases_vanpool_id_created_at_idx" ON "cases"("vanpool_id", "created_at" DESC);
