-- CreateTable
CREATE TABLE "sweeps" (
    "id" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "page_count" INTEGER NOT NULL,
    "vanpool_count" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),
    "slack_channel" TEXT,
    "slack_ts" TEXT,

    CONSTRAINT "sweeps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sweep_pages" (
    "sweep_id" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "checked" INTEGER NOT NULL DEFAULT 0,
    "new_cases" TEXT[],
    "still_failing" INTEGER NOT NULL DEFAULT 0,
    "resolved" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT[],
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "sweep_pages_pkey" PRIMARY KEY ("sweep_id","page")
);

-- AddForeignKey
ALTER TABLE "sweep_pages" ADD CONSTRAINT "sweep_pages_sweep_id_fkey" FOREIGN KEY ("sweep_id") REFERENCES "sweeps"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

