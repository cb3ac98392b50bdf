-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "VanpoolStatus" AS ENUM ('active', 'inactive');

-- CreateEnum
CREATE TYPE "RiderStatus" AS ENUM ('active', 'removed');

-- CreateEnum
CREATE TYPE "CaseStatus" AS ENUM ('open', 'verification', 'pending_reply', 're_audit', 'hitl_review', 'pre_cancel', 'resolved', 'cancelled');

-- CreateEnum
CREATE TYPE "CaseReason" AS ENUM ('location_mismatch', 'shift_mismatch', 'both', 'inconclusive');

-- CreateEnum
CREATE TYPE "CaseOutcome" AS ENUM ('verified', 'resolved', 'cancelled');

-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('pass', 'fail', 'inconclusive');

-- CreateEnum
CREATE TYPE "CheckKind" AS ENUM ('location', 'shift');

-- CreateEnum
CREATE TYPE "MessageDirection" AS ENUM ('inbound', 'outbound');

-- CreateEnum
CREATE TYPE "MessageStatus" AS ENUM ('draft', 'pending_review', 'queued', 'sent', 'received', 'failed', 'discarded');

-- CreateEnum
CREATE TYPE "ReplyBucket" AS ENUM ('acknowledgment', 'question', 'update', 'escalation');

-- CreateEnum
CREATE TYPE "ApprovalKind" AS ENUM ('escalation_reply', 'cancellation');

-- CreateEnum
CREATE TYPE "ApprovalStatus" AS ENUM ('pending', 'approved', 'edited', 'rejected', 'expired');

-- CreateEnum
CREATE TYPE "AgentRunStatus" AS ENUM ('running', 'succeeded', 'failed', 'interrupted');

-- CreateTable
CREATE TABLE "shifts" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "schedule" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shifts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "employees" (
    "id" TEXT NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "work_site" TEXT NOT NULL,
    "home_address" TEXT NOT NULL,
    "home_city" TEXT NOT NULL,
    "home_state" TEXT NOT NULL,
    "home_zip" TEXT NOT NULL,
    "home_lat" DOUBLE PRECISION,
    "home_lng" DOUBLE PRECISION,
    "shift_id" TEXT,
    "pto_dates" TEXT[],
    "time_type" TEXT NOT NULL,
    "supervisor" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "employees_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vanpools" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "work_site" TEXT NOT NULL,
    "work_site_address" TEXT NOT NULL,
    "work_site_lat" DOUBLE PRECISION NOT NULL,
    "work_site_lng" DOUBLE PRECISION NOT NULL,
    "pickup_address" TEXT,
    "pickup_lat" DOUBLE PRECISION,
    "pickup_lng" DOUBLE PRECISION,
    "capacity" INTEGER NOT NULL,
    "coordinator_id" TEXT,
    "status" "VanpoolStatus" NOT NULL DEFAULT 'active',
    "operating_schedule" JSONB,
    "time_zone" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vanpools_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "riders" (
    "id" SERIAL NOT NULL,
    "vanpool_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "participant_id" TEXT NOT NULL,
    "status" "RiderStatus" NOT NULL DEFAULT 'active',
    "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removed_at" TIMESTAMP(3),
    "removed_reason" TEXT,

    CONSTRAINT "riders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cases" (
    "id" TEXT NOT NULL,
    "vanpool_id" TEXT NOT NULL,
    "status" "CaseStatus" NOT NULL,
    "reason" "CaseReason" NOT NULL,
    "failed_checks" TEXT[],
    "meta" JSONB NOT NULL DEFAULT '{}',
    "outcome" "CaseOutcome",
    "re_audit_count" INTEGER NOT NULL DEFAULT 0,
    "last_outbound_at" TIMESTAMP(3),
    "resolved_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_runs" (
    "id" TEXT NOT NULL,
    "vanpool_id" TEXT NOT NULL,
    "case_id" TEXT,
    "trigger" TEXT NOT NULL,
    "verdict" "Verdict" NOT NULL,
    "policy" JSONB NOT NULL,
    "as_of" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "verification_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "specialist_results" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "check" "CheckKind" NOT NULL,
    "verdict" "Verdict" NOT NULL,
    "confidence" INTEGER NOT NULL,
    "reasoning" TEXT NOT NULL,
    "evidence" JSONB NOT NULL,
    "flagged" TEXT[],
    "model" TEXT NOT NULL DEFAULT 'rules',

    CONSTRAINT "specialist_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_threads" (
    "id" TEXT NOT NULL,
    "case_id" TEXT NOT NULL,
    "vanpool_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "email_threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "direction" "MessageDirection" NOT NULL,
    "from_address" TEXT NOT NULL,
    "to_addresses" TEXT[],
    "cc_addresses" TEXT[],
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" "MessageStatus" NOT NULL,
    "bucket" "ReplyBucket",
    "confidence" DOUBLE PRECISION,
    "idempotency_key" TEXT,
    "provider_message_id" TEXT,
    "sent_at" TIMESTAMP(3),
    "received_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_requests" (
    "id" TEXT NOT NULL,
    "kind" "ApprovalKind" NOT NULL,
    "case_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "ApprovalStatus" NOT NULL DEFAULT 'pending',
    "graph_thread_id" TEXT,
    "interrupt_id" TEXT,
    "decided_by" TEXT,
    "decided_at" TIMESTAMP(3),
    "decision_reason" TEXT,
    "edited_body" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "approval_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject_type" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_runs" (
    "id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "case_id" TEXT,
    "vanpool_id" TEXT,
    "status" "AgentRunStatus" NOT NULL DEFAULT 'running',
    "input" JSONB,
    "output" JSONB,
    "error" TEXT,
    "tokens_in" INTEGER,
    "tokens_out" INTEGER,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "agent_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_run_logs" (
    "id" BIGSERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "level" TEXT NOT NULL DEFAULT 'info',
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" JSONB,
    "duration_ms" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_run_logs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "employees_email_key" ON "employees"("email");

-- CreateIndex
CREATE INDEX "employees_shift_id_idx" ON "employees"("shift_id");

-- CreateIndex
CREATE INDEX "vanpools_status_idx" ON "vanpools"("status");

-- CreateIndex
CREATE UNIQUE INDEX "riders_participant_id_key" ON "riders"("participant_id");

-- CreateIndex
CREATE INDEX "riders_employee_id_idx" ON "riders"("employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "riders_vanpool_id_employee_id_key" ON "riders"("vanpool_id", "employee_id");

-- CreateIndex
CREATE INDEX "cases_vanpool_id_idx" ON "cases"("vanpool_id");

-- CreateIndex
CREATE INDEX "cases_status_idx" ON "cases"("status");

-- CreateIndex
CREATE INDEX "verification_runs_vanpool_id_finished_at_idx" ON "verification_runs"("vanpool_id", "finished_at");

-- CreateIndex
CREATE INDEX "verification_runs_case_id_idx" ON "verification_runs"("case_id");

-- CreateIndex
CREATE UNIQUE INDEX "specialist_results_run_id_check_key" ON "specialist_results"("run_id", "check");

-- CreateIndex
CREATE INDEX "email_threads_case_id_idx" ON "email_threads"("case_id");

-- CreateIndex
CREATE UNIQUE INDEX "messages_idempotency_key_key" ON "messages"("idempotency_key");

-- CreateIndex
CREATE INDEX "messages_thread_id_created_at_idx" ON "messages"("thread_id", "created_at");

-- CreateIndex
CREATE INDEX "approval_requests_case_id_idx" ON "approval_requests"("case_id");

-- CreateIndex
CREATE INDEX "approval_requests_status_idx" ON "approval_requests"("status");

-- CreateIndex
CREATE INDEX "audit_events_subject_type_subject_id_created_at_idx" ON "audit_events"("subject_type", "subject_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_runs_case_id_idx" ON "agent_runs"("case_id");

-- CreateIndex
CREATE INDEX "agent_run_logs_run_id_id_idx" ON "agent_run_logs"("run_id", "id");

-- AddForeignKey
ALTER TABLE "employees" ADD CONSTRAINT "employees_shift_id_fkey" FOREIGN KEY ("shift_id") REFERENCES "shifts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "riders" ADD CONSTRAINT "riders_vanpool_id_fkey" FOREIGN KEY ("vanpool_id") REFERENCES "vanpools"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "riders" ADD CONSTRAINT "riders_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employees"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cases" ADD CONSTRAINT "cases_vanpool_id_fkey" FOREIGN KEY ("vanpool_id") REFERENCES "vanpools"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verification_runs" ADD CONSTRAINT "verification_runs_vanpool_id_fkey" FOREIGN KEY ("vanpool_id") REFERENCES "vanpools"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "verification_runs" ADD CONSTRAINT "verification_runs_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "specialist_results" ADD CONSTRAINT "specialist_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "verification_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_threads" ADD CONSTRAINT "email_threads_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "cases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "email_threads"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "cases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_run_logs" ADD CONSTRAINT "agent_run_logs_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "agent_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One live case per vanpool (closed cases stay as history). Not expressible in
-- the Prisma schema, so it lives here.
CREATE UNIQUE INDEX "cases_one_open_per_vanpool" ON "cases"("vanpool_id") WHERE "status" NOT IN ('resolved', 'cancelled');
