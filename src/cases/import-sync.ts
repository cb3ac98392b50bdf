// The scheduled import sync: on each POOLPATROL_IMPORT_CRON slot, the newest file of each kind in
// POOLPATROL_IMPORT_DIR (a name starting with the kind: employees-2026-11-30.csv), or each kind's
// file at POOLPATROL_IMPORT_URL (`{kind}` replaced), is imported as `poolpatrol import` would,
// unless that very file was imported before. Every file is fetched and read before any is applied,
// and all are applied in one transaction: a missing folder, an unreachable URL, a malformed file or
// one whose rows break a rule changes nothing, whichever kind it is. One run per slot:
// the slot is claimed in the database, whichever replica's job gets there.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import type { ImportSyncSettings } from "../config/settings.js";
import { inImportTransaction } from "../data/change-history-repository.js";
import { importedHashes } from "../data/data-import-repository.js";
import { FixtureError } from "../data/fixtures.js";
import { claimSync, finishSync } from "../data/import-sync-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import { newId } from "../domain/ids.js";
import type { ImportKindName } from "../domain/record-import.js";
import { importJobs, type JobSender } from "../queue/queues.js";
import { contentHash, importFiles, readImport } from "./import-records.js";

/** The order a sync applies kinds in: what a later kind refers to is in first. */
export const SYNC_ORDER: ImportKindName[] = ["shifts", "employees", "vanpools", "riders"];

export interface ImportSyncDeps {
  prisma: PrismaClient;
  /** The import itself writes through pg (import-records.ts). */
  pool: pg.Pool;
  jobs: JobSender;
  settings: ImportSyncSettings;
  now(): Date;
  log(line: string): void;
  /** Each request to POOLPATROL_IMPORT_URL gives up after this long. */
  httpTimeoutMs: number;
}

/** Why a sync failed, in words for the channel; nothing was changed by it. */
export class SyncFailure extends Error {
  override name = "SyncFailure";
}

interface SourceFile {
  kind: ImportKindName;
  file: string;
}

export type SyncOutcome =
  | { outcome: "imported"; importIds: string[]; files: string[] }
  | { outcome: "nothing_new" }
  | { outcome: "already_run" };

/** Runs the sync of `slot`; a failure is recorded (and its notice queued) before it is thrown. */
export async function runImportSync(deps: ImportSyncDeps, slot: string): Promise<SyncOutcome> {
  if ((await claimSync(deps.prisma, slot, deps.now())) === "finished") return { outcome: "already_run" };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-sync-"));
  try {
    const found = "dir" in deps.settings.source ? newestInFolder(deps.settings.source.dir) : await download(deps, work);
    const hashes = found.map((f) => contentHash(f.kind, [f.file]));
    const before = await importedHashes(deps.prisma, hashes);
    const fresh = found.filter((_, i) => !before.has(hashes[i]!));
    if (fresh.length === 0) {
      await finishSync(deps.prisma, slot, { outcome: "nothing_new", importIds: [], at: deps.now() });
      deps.log(`Import sync ${slot}: nothing new (${found.length} file(s) imported before).`);
      return { outcome: "nothing_new" };
    }
    const mappingOf = (kind: ImportKindName) => {
      const file = deps.settings.mappingsDir && path.join(deps.settings.mappingsDir, `${kind}.mapping.json`);
      return file && fs.existsSync(file) ? file : undefined;
    };
    for (const f of fresh) await refusing(() => readImport({ ...f, files: [f.file], mappingFile: mappingOf(f.kind) }));
    // One transaction for every file: a file refused after others were planned leaves them unapplied too.
    const importIds = await inImportTransaction(deps.pool, async (tx) => {
      const ids: string[] = [];
      for (const f of fresh) {
        const importId = newId("import");
        await refusing(() =>
          importFiles(deps, {
            kind: f.kind,
            files: [f.file],
            mappingFile: mappingOf(f.kind),
            dryRun: false,
            actor: `sync:${slot}`,
            jobs: deps.jobs,
            importId,
            tx,
          }),
        );
        ids.push(importId);
      }
      return ids;
    });
    await finishSync(deps.prisma, slot, { outcome: "imported", importIds, at: deps.now() });
    const files = fresh.map((f) => path.basename(f.file));
    deps.log(`Import sync ${slot}: imported ${files.join(", ")}.`);
    return { outcome: "imported", importIds, files };
  } catch (error) {
    const why = error instanceof SyncFailure ? error.message : `it stopped: ${(error as Error).message}`;
    await finishSync(deps.prisma, slot, { outcome: "failed", error: why, importIds: [], at: deps.now() });
    await importJobs(deps.jobs).syncFailed(slot);
    deps.log(`Import sync ${slot} failed: ${why}`);
    throw new SyncFailure(why);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A refused file fails the sync with the file's first problems. */
async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    const shown = error.problems.slice(0, 3).join("; ");
    const more = error.problems.length > 3 ? ` (and ${error.problems.length - 3} more problems)` : "";
    throw new SyncFailure(`a file was refused: ${shown}${more}.`);
  }
}

const importable = (name: string) => /\.(csv|json)$/i.test(name) && !/\.mapping\.json$/i.test(name);

/** Per kind, the newest file (by modification time, then name) whose name starts with the kind. */
function newestInFolder(dir: string): SourceFile[] {
  let names: string[];
  try {
    if (!fs.statSync(dir).isDirectory()) throw new SyncFailure(`the import folder ${dir} is not a folder.`);
    names = fs.readdirSync(dir);
  } catch (error) {
    if (error instanceof SyncFailure) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new SyncFailure(
      code === "ENOENT"
        ? `the import folder ${dir} does not exist.`
        : `the import folder ${dir} cannot be read (${code ?? (error as Error).message}).`,
    );
  }
  const found: SourceFile[] = [];
  for (const kind of SYNC_ORDER) {
    const newest = names
      .filter((n) => n.toLowerCase().startsWith(kind) && importable(n))
      .map((n) => ({ file: path.join(dir, n), at: fs.statSync(path.join(dir, n)).mtimeMs }))
      .sort((a, b) => b.at - a.at || b.file.localeCompare(a.file))[0];
    if (newest) found.push({ kind, file: newest.file });
  }
  return found;
}

/** Each kind's file from the URL: 404 means the source has none of that kind; anything else not 2xx fails the sync. */
async function download(deps: ImportSyncDeps, work: string): Promise<SourceFile[]> {
  const source = deps.settings.source as { url: string; token: string | undefined };
  const found: SourceFile[] = [];
  for (const kind of SYNC_ORDER) {
    const url = source.url.replaceAll("{kind}", kind);
    const shown = url.replace(/\?.*$/, "");
    let response: Response;
    try {
      response = await fetch(url, {
        headers: source.token ? { authorization: `Bearer ${source.token}` } : {},
        signal: AbortSignal.timeout(deps.httpTimeoutMs),
        redirect: "error",
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new SyncFailure(`${shown} could not be reached (${cause}).`);
    }
    if (response.status === 404) continue;
    if (!response.ok) throw new SyncFailure(`${shown} answered HTTP ${response.status}.`);
    const named = /filename="?([^";]+)"?/i.exec(response.headers.get("content-disposition") ?? "")?.[1];
    const name = path.basename(named ?? new URL(url).pathname);
    const file = path.join(work, importable(name) ? name : `${kind}.csv`);
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    found.push({ kind, file });
  }
  return found;
}
