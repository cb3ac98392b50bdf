-- CreateTable
CREATE TABLE "rider_decisions" (
    "id" SERIAL NOT NULL,
    "approval_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "decision" TEXT,
    "first_approver" TEXT,
    "first_approved_at" TIMESTAMP(3),
    "decided_by" TEXT,
    "decided_at" TIMESTAMP(3),
    "evidence_version" TEXT,
    "outcome" TEXT,
    "undone_by" TEXT,
    "undone_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rider_decisions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "rider_decisions_approval_id_employee_id_key" ON "rider_decisions"("approval_id", "employee_id");

-- AddForeignKey
ALTER TABLE "rider_decisions" ADD CONSTRAINT "rider_decisions_approval_id_fkey" FOREIGN KEY ("approval_id") REFERENCES "approval_requests"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
