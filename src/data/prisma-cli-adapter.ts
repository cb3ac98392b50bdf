// Driver adapter for the Prisma CLI only (migrate deploy/status/diff).
//
// With adapter-pg, the JS schema engine fails on result columns of PostgreSQL's
// `name` (OID 19) and `"char"` (OID 18) types ("Column type 'name' could not be
// deserialized", prisma/orm#27403). Relabelling them as `text` before the adapter
// maps types is enough; this runs inside the CLI process, never in the app.

import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

const PG_NAME_OID = 19;
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

let patched = false;
function relabelNameAndCharColumnsAsText(): void {
  if (patched) return;
  patched = true;
  // pg's Result.addFields is where column type ids arrive; it is not in the typings.
  const result = pg.Result.prototype as unknown as { addFields(fields: pg.FieldDef[]): void };
  const originalAddFields = result.addFields;
  result.addFields = function addFields(this: unknown, fields: pg.FieldDef[]) {
    for (const field of fields) {
      if (field.dataTypeID === PG_NAME_OID || field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    }
    return originalAddFields.call(this, fields);
  };
}

export async function cliMigrationAdapter() {
  relabelNameAndCharColumnsAsText();
  const url = process.env.POOLPATROL_PRISMA_URL;
  if (!url) throw new Error("POOLPATROL_PRISMA_URL is not set; run migrations through `poolpatrol db migrate`.");
  // Discrete fields, not a connection string, so the shadow database really is another database.
  const parsed = new URL(url);
  return new PrismaPg({
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.replace(/^\//, ""),
    // Idle pooled connections would otherwise hold the CLI process open for 10 s.
    allowExitOnIdle: true,
  });
}
