-- The read mark of an inbound message: set once its handling finished. A rider's reply without it, on a case
-- still waiting for replies, is read (again) when Resend delivers the email again.
-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "read_at" TIMESTAMP(3);

-- Replies handled before this column existed count as read: classified, or their case moved on.
UPDATE "messages" AS m
SET "read_at" = m."created_at"
FROM "email_threads" AS t
JOIN "cases" AS c ON c."id" = t."case_id"
WHERE m."thread_id" = t."id"
  AND m."direction" = 'inbound'
  AND (m."bucket" IS NOT NULL OR c."status" <> 'pending_reply');
