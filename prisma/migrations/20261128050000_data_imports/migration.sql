-- An import sent to the REST API: what it changed or why it was refused.
-- CreateTable
CREATE TABLE "data_imports" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source_file" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "dry_run" BOOLEAN NOT NULL,
    "outcome" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "data_imports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "data_imports_created_at_idx" ON "data_imports"("created_at");
