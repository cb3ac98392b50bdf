-- Every import is kept with its channel summary, the vanpools it re-checks and, for the
-- scheduled sync, the hash of the file it read and the slot that ran it.
-- AlterTable
ALTER TABLE "data_imports" ADD COLUMN     "content_sha256" TEXT,
ADD COLUMN     "details_ts" TEXT,
ADD COLUMN     "slack_channel" TEXT,
ADD COLUMN     "slack_ts" TEXT;

-- CreateTable
CREATE TABLE "import_rechecks" (
    "import_id" TEXT NOT NULL,
    "vanpool_id" TEXT NOT NULL,
    "open_case_id" TEXT,
    "outcome" TEXT,
    "case_id" TEXT,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "import_rechecks_pkey" PRIMARY KEY ("import_id","vanpool_id")
);

-- CreateTable
CREATE TABLE "import_syncs" (
    "slot" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),
    "outcome" TEXT,
    "error" TEXT,
    "import_ids" TEXT[],
    "slack_ts" TEXT,

    CONSTRAINT "import_syncs_pkey" PRIMARY KEY ("slot")
);

-- CreateIndex
CREATE INDEX "data_imports_content_sha256_idx" ON "data_imports"("content_sha256");

-- CreateIndex
CREATE INDEX "import_syncs_started_at_idx" ON "import_syncs"("started_at");

-- AddForeignKey
ALTER TABLE "import_rechecks" ADD CONSTRAINT "import_rechecks_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "data_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
