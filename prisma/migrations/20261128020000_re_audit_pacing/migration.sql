-- Re-audit pacing: a reply's re-audit counts toward the limit of three only on changed data (re_audit_basis, the
-- fingerprint of what the last counted re-audit read) or from one business day after it (re_audit_counts_from).
-- AlterTable
ALTER TABLE "cases" ADD COLUMN     "re_audit_basis" TEXT,
ADD COLUMN     "re_audit_counts_from" TIMESTAMP(3);
