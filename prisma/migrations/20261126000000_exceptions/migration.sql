-- Exceptions (docs/exceptions.md): a person kept a failing rider, and audits honour it while it holds on the same facts.
-- A sweep page records the exceptions that kept its failing riders from a case.
-- AlterTable
ALTER TABLE "sweep_pages" ADD COLUMN     "kept" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "rider_exceptions" (
    "id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "vanpool_id" TEXT NOT NULL,
    "check" "CheckKind" NOT NULL,
    "reason" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "granted_by" TEXT NOT NULL,
    "granted_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "facts" JSONB NOT NULL,
    "case_id" TEXT,
    "decision" TEXT NOT NULL,
    "revoked_by" TEXT,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "rider_exceptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "rider_exceptions_vanpool_id_employee_id_check_idx" ON "rider_exceptions"("vanpool_id", "employee_id", "check");

-- CreateIndex
CREATE INDEX "rider_exceptions_expires_at_idx" ON "rider_exceptions"("expires_at");

