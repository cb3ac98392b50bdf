-- A re-audit counts once per reason it ran (a reply, a timeout), not once per agent run: a reply read again or a
-- timeout retried after a failure ran a second agent run for the same re-audit.
ALTER TABLE "cases" ADD COLUMN "re_audit_keys" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
UPDATE "cases" SET "re_audit_keys" = ARRAY["re_audit_run_id"] WHERE "re_audit_run_id" IS NOT NULL;
ALTER TABLE "cases" DROP COLUMN "re_audit_run_id";
