// Imports sent to the REST API (table data_imports): kept with their result, read back by id.
import type { Prisma, PrismaClient } from "./prisma.js";

export interface DataImportRecord {
  id: string;
  kind: string;
  source_file: string;
  actor: string;
  dry_run: boolean;
  outcome: "applied" | "dry_run" | "refused";
  result: Record<string, unknown>;
  created_at: Date;
}

export async function recordDataImport(
  prisma: PrismaClient,
  row: Omit<DataImportRecord, "created_at">,
): Promise<DataImportRecord> {
  const stored = await prisma.dataImport.create({
    data: {
      id: row.id,
      kind: row.kind,
      sourceFile: row.source_file,
      actor: row.actor,
      dryRun: row.dry_run,
      outcome: row.outcome,
      result: row.result as Prisma.InputJsonObject,
    },
  });
  return { ...row, created_at: stored.createdAt };
}

export async function findDataImport(prisma: PrismaClient, id: string): Promise<DataImportRecord | null> {
  const r = await prisma.dataImport.findUnique({ where: { id } });
  return (
    r && {
      id: r.id,
      kind: r.kind,
      source_file: r.sourceFile,
      actor: r.actor,
      dry_run: r.dryRun,
      outcome: r.outcome as DataImportRecord["outcome"],
      result: r.result as Record<string, unknown>,
      created_at: r.createdAt,
    }
  );
}
