import type { App } from "@slack/bolt";
import { listApprovals } from "../../../data/approval-repository.js";
import { listCases } from "../../../data/case-repository.js";
import { isClosed } from "../../../domain/case-lifecycle.js";
import { homeView } from "../../blocks/home.js";
import type { SlackContext } from "../../slack-context.js";

export function registerAppHome(
  app: App,
  deps: { ctx: SlackContext; isApprover(userId: string): Promise<boolean> },
): void {
  const { prisma } = deps.ctx.deps;
  app.event("app_home_opened", async ({ event, client }) => {
    if (event.tab && event.tab !== "home") return;
    const [vanpools, cases, pending, lastRun, approver] = await Promise.all([
      prisma.vanpool.findMany({
        where: { status: "active" },
        orderBy: { id: "asc" },
        select: { id: true, name: true, _count: { select: { riders: { where: { status: "active" } } } } },
      }),
      listCases(prisma),
      listApprovals(prisma, { status: "pending" }),
      prisma.verificationRun.findFirst({ orderBy: { finishedAt: "desc" }, select: { finishedAt: true } }),
      deps.isApprover(event.user),
    ]);
    const open = cases.filter((c) => !isClosed(c.status));
    const openByVan = new Map(open.map((c) => [c.vanpool_id, c]));
    const vanOfCase = new Map(cases.map((c) => [c.case_id, c.vanpool_id]));
    const view = homeView({
      vanpools: vanpools
        .map((v) => ({
          vanpool_id: v.id,
          name: v.name,
          riders: v._count.riders,
          open_case: openByVan.get(v.id) ?? null,
        }))
        .sort((a, b) => Number(Boolean(b.open_case)) - Number(Boolean(a.open_case))),
      openCases: open,
      pendingForViewer: pending.map((approval) => ({ approval, vanpool_id: vanOfCase.get(approval.case_id) ?? "" })),
      viewerIsApprover: approver,
      lastAudit: lastRun?.finishedAt ?? null,
    });
    await client.views.publish({ user_id: event.user, view: view as never });
  });
}
