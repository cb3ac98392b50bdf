-- Streamed answers, follow-ups in threads the Case Manager answered, and auditors' feedback on answers.
-- AlterTable
ALTER TABLE "slack_post_intents" ADD COLUMN "stream_ts" TEXT;

-- CreateTable
CREATE TABLE "answered_threads" (
    "channel" TEXT NOT NULL,
    "thread_ts" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "answered_threads_pkey" PRIMARY KEY ("channel","thread_ts")
);

-- CreateTable
CREATE TABLE "answer_feedback" (
    "id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "correction" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "case_id" TEXT,
    "case_snapshot" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "answer_feedback_pkey" PRIMARY KEY ("id")
);
