// `poolpatrol exceptions [list]` and `poolpatrol exceptions revoke EXC-… --as NAME`: riders a person kept
// while they fail a check (docs/exceptions.md), with who kept them, why, and until when.
import { loadSettings, withContext } from "../app/context.js";
import { createExceptions } from "../cases/exceptions.js";
import type { RiderException } from "../domain/exceptions.js";
import { isId } from "../domain/ids.js";
import { out, UsageError } from "./command-kit.js";
import { keptText } from "./format.js";

export async function exceptionsCommand(action = "list", id: string | undefined, options: { as?: string }) {
  if (action !== "list" && action !== "revoke") throw new UsageError(`Unknown action "${action}": list or revoke.`);
  if (action === "list" && id) throw new UsageError("`exceptions list` takes no id.");
  const exceptionId = id?.toUpperCase();
  if (action === "revoke") {
    if (!exceptionId || !isId("exception", exceptionId))
      throw new UsageError("`exceptions revoke` needs an exception id, like EXC-1A2B3C4D5E6F7A8B.");
    if (!options.as?.trim()) throw new UsageError("`exceptions revoke` needs --as NAME: who revokes it.");
  }
  const settings = loadSettings();
  await withContext(settings, async (ctx) => {
    const exceptions = createExceptions(ctx.agentDeps);
    const now = ctx.agentDeps.now();
    if (action === "revoke") {
      const revoked = await exceptions.revoke(exceptionId!, options.as!.trim());
      out(
        revoked.revoked_by === options.as!.trim() && revoked.revoked_at?.getTime() === now.getTime()
          ? `${revoked.exception_id} revoked: the next audit checks ${revoked.employee_id} on ${revoked.vanpool_id} (${revoked.check}) normally.\n`
          : `${revoked.exception_id} was already revoked by ${revoked.revoked_by}; nothing was changed.\n`,
      );
      return;
    }
    const live = await exceptions.listLive();
    out(
      live.length
        ? `${live.map((e) => line(e, settings.timeZone, now)).join("\n")}\n`
        : "No exceptions hold: every failing rider is audited normally.\n",
    );
  });
}

function line(exception: RiderException, timeZone: string, now: Date): string {
  const note = exception.note ? ` — ${exception.note}` : "";
  return `${exception.exception_id}  ${keptText(exception, timeZone, now)}${note}${exception.case_id ? ` [${exception.case_id}]` : ""}`;
}
