// App Home: flagged vanpools first, the viewer's pending approvals, cases waiting for
// a person with their age, open cases by status, and when the last audit ran.
import type { App } from "@slack/bolt";
import { listApprovals } from "../../../data/approval-repository.js";
import { findCaseCardData, listCasesNeedingPerson } from "../../../data/case-card-repository.js";
import { listCases } from "../../../data/case-repository.js";
import { listActiveVanpools } from "../../../data/vanpool-repository.js";
import { lastAuditAt } from "../../../data/verification-repository.js";
import { isClosed } from "../../../domain/case-lifecycle.js";
import { approvalCardFacts } from "../../../slack/blocks/card-facts.js";
import { homeView } from "../../../slack/blocks/home.js";
import type { SlackContext } from "../../slack-context.js";

export function registerAppHome(
  app: App,
  deps: { ctx: SlackContext; isApprover(userId: string): Promise<boolean> },
): void {
  const { prisma } = deps.ctx.deps;
  app.event("app_home_opened", async ({ event, client }) => {
    if (event.tab && event.tab !== "home") return;
    const [vanpools, cases, pending, lastAudit, approver, needsPerson] = await Promise.all([
      listActiveVanpools(prisma),
      listCases(prisma),
      listApprovals(prisma, { status: "pending" }),
      lastAuditAt(prisma),
      deps.isApprover(event.user),
      listCasesNeedingPerson(prisma),
    ]);
    const open = cases.filter((c) => !isClosed(c.status));
    const openByVan = new Map(open.map((c) => [c.vanpool_id, c]));
    const vanOfCase = new Map(cases.map((c) => [c.case_id, c.vanpool_id]));
    const shown = approver ? pending.slice(0, 6) : [];
    const pendingForViewer = await Promise.all(
      shown.map(async (approval) => ({
        approval,
        vanpool_id: vanOfCase.get(approval.case_id) ?? "",
        facts: approvalCardFacts(
          await findCaseCardData(prisma, approval.case_id),
          approval,
          deps.ctx.deps.settings.cancelApprovals,
        ),
      })),
    );
    const view = homeView({
      vanpools: vanpools
        .map((v) => ({ ...v, open_case: openByVan.get(v.vanpool_id) ?? null }))
        .sort((a, b) => Number(Boolean(b.open_case)) - Number(Boolean(a.open_case))),
      openCases: open,
      needsPerson,
      pendingForViewer,
      viewerIsApprover: approver,
      lastAudit,
      now: deps.ctx.deps.now(),
    });
    await client.views.publish({ user_id: event.user, view });
  });
}
