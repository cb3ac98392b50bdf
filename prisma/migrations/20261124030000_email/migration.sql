-- AlterTable
ALTER TABLE "cases" ADD COLUMN     "reply_extended_until" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "attachments" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "auto_reply" TEXT,
ADD COLUMN     "delivery_status" TEXT,
ADD COLUMN     "reply_text" TEXT,
ADD COLUMN     "rfc_message_id" TEXT;

-- AlterTable
ALTER TABLE "quarantined_emails" ADD COLUMN     "attachments" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "headers" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "resolved_at" TIMESTAMP(3),
ADD COLUMN     "resolved_by" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'open',
ADD COLUMN     "to_addresses" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "message_delivery_events" (
    "id" BIGSERIAL NOT NULL,
    "message_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_delivery_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resend_webhook_events" (
    "svix_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "processed_at" TIMESTAMP(3),
    "outcome" TEXT,

    CONSTRAINT "resend_webhook_events_pkey" PRIMARY KEY ("svix_id")
);

-- CreateIndex
CREATE INDEX "message_delivery_events_message_id_id_idx" ON "message_delivery_events"("message_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "messages_rfc_message_id_key" ON "messages"("rfc_message_id");

-- CreateIndex
CREATE INDEX "messages_provider_message_id_idx" ON "messages"("provider_message_id");

-- AddForeignKey
ALTER TABLE "message_delivery_events" ADD CONSTRAINT "message_delivery_events_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

