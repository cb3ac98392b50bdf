// An import sent as a request body (POST /api/imports): the file and its mapping are written to a
// private folder, imported like `poolpatrol import` reads them, and the result (or the problems that
// refused it, nothing changed) is kept with an id to read back.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type DataImportRecord, findDataImport, recordDataImport } from "../data/data-import-repository.js";
import { FixtureError } from "../data/fixtures.js";
import type { DataClients } from "../data/prisma.js";
import { newId } from "../domain/ids.js";
import type { ImportKindName } from "../domain/record-import.js";
import type { JobSender } from "../queue/queues.js";
import { describeImport, importFiles } from "./import-records.js";

export interface ImportUpload {
  kind: ImportKindName;
  /** The file's name, kept with every change; its extension says how to read it (.csv or .json). */
  fileName: string;
  content: string;
  mapping?: Record<string, unknown>;
  dryRun: boolean;
  actor: string;
  jobs?: JobSender;
}

export async function importUpload(db: DataClients, upload: ImportUpload): Promise<DataImportRecord> {
  const fileName = path.basename(upload.fileName.replace(/\\/g, "/"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-upload-"));
  const row = {
    id: newId("import"),
    kind: upload.kind,
    source_file: fileName,
    actor: upload.actor,
    dry_run: upload.dryRun,
  };
  try {
    const file = path.join(dir, fileName);
    fs.writeFileSync(file, upload.content);
    let mappingFile: string | undefined;
    if (upload.mapping) {
      mappingFile = path.join(dir, "mapping.json");
      fs.writeFileSync(mappingFile, JSON.stringify(upload.mapping));
    }
    const result = await importFiles(db, {
      kind: upload.kind,
      files: [file],
      mappingFile,
      dryRun: upload.dryRun,
      actor: upload.actor,
      jobs: upload.jobs,
      // Applied: kept in the import's own transaction.
      ...(upload.dryRun ? {} : { importId: row.id }),
    });
    // An applied import that changed something was kept in its transaction; one that changed nothing is kept now.
    const kept = upload.dryRun ? null : await findDataImport(db.prisma, row.id);
    if (kept) return kept;
    return await recordDataImport(db.prisma, {
      ...row,
      outcome: upload.dryRun ? "dry_run" : "applied",
      result: describeImport(upload.kind, result),
    });
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    return await recordDataImport(db.prisma, { ...row, outcome: "refused", result: { problems: error.problems } });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
