-- AlterTable
ALTER TABLE "cases" ADD COLUMN     "re_audit_run_id" TEXT;

-- AlterTable
ALTER TABLE "approval_requests" ADD COLUMN     "applied_at" TIMESTAMP(3),
ADD COLUMN     "result_note" TEXT;

-- CreateTable
CREATE TABLE "quarantined_emails" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "from_address" TEXT NOT NULL,
    "subject" TEXT,
    "body" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quarantined_emails_pkey" PRIMARY KEY ("id")
);


-- One thread per case: parallel first emails of a case share it instead of racing to create two.
DROP INDEX "email_threads_case_id_idx";
CREATE UNIQUE INDEX "email_threads_case_id_key" ON "email_threads"("case_id");

-- Insertion order of verification runs, to order runs that finished at the same instant.
ALTER TABLE "verification_runs" ADD COLUMN "seq" BIGSERIAL NOT NULL;
