-- The Case Manager's answers with the facts they were built from, and the feedback people give on them.
-- CreateTable
CREATE TABLE "case_answers" (
    "id" TEXT NOT NULL,
    "post_key" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "thread_ts" TEXT,
    "conversation_id" TEXT NOT NULL,
    "case_id" TEXT,
    "vanpool_id" TEXT,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "facts" JSONB NOT NULL,
    "asked_by" TEXT NOT NULL,
    "asker_is_approver" BOOLEAN NOT NULL,
    "asked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "case_answers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "answer_feedback" (
    "id" BIGSERIAL NOT NULL,
    "answer_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "rating" TEXT NOT NULL,
    "correction" TEXT,
    "must_include" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "answer_feedback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "case_answers_post_key_key" ON "case_answers"("post_key");

-- CreateIndex
CREATE INDEX "case_answers_conversation_id_asked_at_idx" ON "case_answers"("conversation_id", "asked_at");

-- CreateIndex
CREATE UNIQUE INDEX "answer_feedback_answer_id_user_id_key" ON "answer_feedback"("answer_id", "user_id");

-- CreateIndex
CREATE INDEX "answer_feedback_rating_created_at_idx" ON "answer_feedback"("rating", "created_at");

-- AddForeignKey
ALTER TABLE "answer_feedback" ADD CONSTRAINT "answer_feedback_answer_id_fkey" FOREIGN KEY ("answer_id") REFERENCES "case_answers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
