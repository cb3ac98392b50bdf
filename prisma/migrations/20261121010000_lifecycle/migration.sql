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

