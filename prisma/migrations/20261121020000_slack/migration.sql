-- AlterTable
ALTER TABLE "cases" ADD COLUMN     "slack_channel" TEXT,
ADD COLUMN     "slack_ts" TEXT;

-- AlterTable
ALTER TABLE "approval_requests" ADD COLUMN     "reminded_at" TIMESTAMP(3),
ADD COLUMN     "slack_channel" TEXT,
ADD COLUMN     "slack_ts" TEXT;

-- CreateTable
CREATE TABLE "slack_event_receipts" (
    "event_id" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "slack_event_receipts_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "digest_runs" (
    "period_key" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "ts" TEXT,
    "posted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "digest_runs_pkey" PRIMARY KEY ("period_key")
);

