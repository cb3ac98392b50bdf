-- The employment check: a third check kind, the reason of a case it opens, and the date an employment ends.
-- AlterEnum
ALTER TYPE "CheckKind" ADD VALUE 'employment';

-- AlterEnum
ALTER TYPE "CaseReason" ADD VALUE 'employment_ended';

-- AlterTable
ALTER TABLE "employees" ADD COLUMN "separation_date" TEXT;
