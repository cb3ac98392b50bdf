-- The provider's id of a received email (Resend's email_id) on the inbound message or quarantined email
-- that keeps it, unique where set: a redelivery of the same email finds it instead of keeping it again.
-- DropIndex
DROP INDEX "messages_provider_message_id_idx";

-- AlterTable
ALTER TABLE "quarantined_emails" ADD COLUMN     "provider_message_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "messages_provider_message_id_key" ON "messages"("provider_message_id");

-- CreateIndex
CREATE UNIQUE INDEX "quarantined_emails_provider_message_id_key" ON "quarantined_emails"("provider_message_id");

