-- Streamed answers, and follow-ups in threads the Case Manager answered.
-- AlterTable
ALTER TABLE "slack_post_intents" ADD COLUMN "stream_ts" TEXT;

-- CreateTable
CREATE TABLE "answered_threads" (
    "channel" TEXT NOT NULL,
    "thread_ts" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "answered_threads_pkey" PRIMARY KEY ("channel","thread_ts")
);
