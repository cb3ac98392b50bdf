// An import's channel summary and the details in its thread: posted once (post-once.ts: a retried
// job, a second replica or a crash between posting and storing the ts posts nothing twice), then
// updated in place as the import's re-checks finish; posted again if someone deleted it. A failed
// scheduled sync is told once per slot the same way.
import {
  findImportSummary,
  type ImportedRecordName,
  type ImportSummaryRecord,
  importedRecordNames,
  setImportDetails,
  setImportMessage,
} from "../data/data-import-repository.js";
import { findSync, setSyncMessage } from "../data/import-sync-repository.js";
import type { SlackLocation } from "../data/slack-message-repository.js";
import type { ImportKindName } from "../domain/record-import.js";
import { riderName } from "./blocks/format.js";
import { type ImportSummaryInput, importDetails, importSummary, syncFailedNotice } from "./blocks/import-summary.js";
import type { ChannelContext } from "./channel-context.js";
import { channelPacerFor } from "./channel-pacer.js";
import { postOnce } from "./post-once.js";
import { updateInPlace } from "./update-in-place.js";

interface KeptResult {
  counts?: { added: number; changed: number; leaving: number };
  added?: string[];
  changed?: { id: string; changes: { field: string }[] }[];
  leaving?: { id: string }[];
}

export function createImportAnnouncer(ctx: ChannelContext, options: { channelIntervalMs?: number } = {}) {
  const { prisma } = ctx.deps;
  const { client } = ctx;
  const pacer = channelPacerFor(ctx, options.channelIntervalMs);
  const once = { prisma, client, pacer, holdMs: ctx.deps.settings.claimMs };
  const channel = () => ctx.slack.auditChannel;

  /** Posts the summary of an applied import, or brings it and its details up to date. */
  async function announce(importId: string): Promise<void> {
    const record = await findImportSummary(prisma, importId);
    if (record?.outcome !== "applied") return;
    const kept = record.result as KeptResult;
    const input: ImportSummaryInput = {
      id: record.id,
      kind: record.kind as ImportKindName,
      source_file: record.source_file,
      actor: record.actor,
      created_at: record.created_at,
      counts: kept.counts ?? { added: 0, changed: 0, leaving: 0 },
      rechecks: record.rechecks,
    };
    const summary = importSummary(input);
    let where = record.slack;
    let reposted = false;
    if (!where || !(await updateInPlace(client, pacer, { ...where, ...summary }))) {
      const gone = where;
      where = await postOnce(once, {
        key: `import:${importId}`,
        args: { channel: channel(), ...summary },
        posted: async () => {
          const now = (await findImportSummary(prisma, importId))?.slack;
          return now && now.ts !== gone?.ts ? now : undefined;
        },
        record: (at) => setImportMessage(prisma, importId, at),
      });
      reposted = gone !== null;
    }
    await postDetails(record, input, kept, where, reposted);
  }

  async function postDetails(
    record: ImportSummaryRecord,
    input: ImportSummaryInput,
    kept: KeptResult,
    thread: SlackLocation,
    reposted: boolean,
  ): Promise<void> {
    const ids = [
      ...(kept.added ?? []),
      ...(kept.changed ?? []).map((c) => c.id),
      ...(kept.leaving ?? []).map((l) => l.id),
    ];
    const names = await importedRecordNames(prisma, record.kind, ids);
    const label = (id: string) => nameOf(record.kind, id, names.get(id));
    const details = importDetails({
      ...input,
      added: (kept.added ?? []).map(label),
      changed: (kept.changed ?? []).map((c) => ({ label: label(c.id), fields: c.changes.map((f) => f.field) })),
      leaving: (kept.leaving ?? []).map((l) => label(l.id)),
    });
    const at = record.details_ts && !reposted ? { channel: thread.channel, ts: record.details_ts } : undefined;
    if (at && (await updateInPlace(client, pacer, { ...at, ...details }))) return;
    const goneTs = record.details_ts;
    await postOnce(once, {
      key: `import-details:${record.id}`,
      args: { channel: thread.channel, thread_ts: thread.ts, ...details },
      posted: async () => {
        const now = (await findImportSummary(prisma, record.id))?.details_ts;
        return now && now !== goneTs ? { channel: thread.channel, ts: now } : undefined;
      },
      record: (posted) => setImportDetails(prisma, record.id, posted.ts),
    });
  }

  /** Tells the channel that the sync of `slot` failed, once. */
  async function syncFailed(slot: string): Promise<void> {
    const sync = await findSync(prisma, slot);
    if (sync?.outcome !== "failed") return;
    const notice = syncFailedNotice({
      started_at: sync.started_at,
      error: sync.error ?? "it stopped without saying why.",
    });
    await postOnce(once, {
      key: `sync-failed:${slot}`,
      args: { channel: channel(), ...notice },
      posted: async () => {
        const ts = (await findSync(prisma, slot))?.slack_ts;
        return ts ? { channel: channel(), ts } : undefined;
      },
      record: (at) => setSyncMessage(prisma, slot, at.ts),
    });
  }

  return { announce, syncFailed };
}

function nameOf(kind: string, id: string, name: ImportedRecordName | undefined): string {
  if (kind === "employees") return riderName(id, name?.first_name);
  if (kind === "riders")
    return name?.employee_id ? `${riderName(name.employee_id, name.first_name)} on ${name.vanpool_id}` : id;
  return name?.name ? `${id} ${name.name}` : id;
}
