// POST /api/imports takes an export as the body (CSV or JSON text, with its kind and file name) and
// imports it as `poolpatrol import` does: the same validation, one transaction, the same history and
// re-audits, under the token's name. GET /api/imports/{id} reads its result and diff back.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { importUpload } from "../../cases/import-upload.js";
import { type DataImportRecord, findDataImport } from "../../data/data-import-repository.js";
import { IMPORT_KINDS } from "../../domain/record-import.js";
import { notFound } from "../../errors.js";
import { actorOf, seesPersonalData } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { presentFieldChange } from "./present.js";
import { AUTH_PROBLEMS, ONE_PROBLEMS, problemContent } from "./problem.js";
import { IdParamSchema, jsonContent as json, TOKEN_SECURITY as security } from "./schemas.js";

const FieldChangeSchema = z.object({
  field: z.string(),
  old: z.string().nullable(),
  new: z.string().nullable(),
  withheld: z.literal(true).optional().openapi({
    description:
      "a home's street address, coordinates or an email changed: the values need the pii scope (a ZIP shows as its ZIP3)",
  }),
});
const RecordChangesSchema = z.object({ id: z.string(), changes: z.array(FieldChangeSchema) });

const ImportSchema = z
  .object({
    id: z.string().openapi({ example: "IMP-1A2B3C4D5E6F7A8B" }),
    kind: z.enum(IMPORT_KINDS),
    source_file: z.string(),
    actor: z.string().openapi({ example: "api:hr-sync" }),
    dry_run: z.boolean(),
    outcome: z.enum(["applied", "dry_run", "refused"]).openapi({
      description: "applied; dry_run (what it would change, nothing changed); refused (problems, nothing changed)",
    }),
    counts: z
      .object({
        added: z.number(),
        changed: z.number(),
        unchanged: z.number(),
        leaving: z.number(),
        rejected: z.number(),
      })
      .nullable(),
    added: z.array(z.string()),
    changed: z.array(RecordChangesSchema),
    leaving: z.array(RecordChangesSchema),
    reaudits: z.array(z.string()).openapi({ description: "vanpools whose re-audit the import queued" }),
    problems: z.array(z.string()).openapi({ description: "why it was refused: file, line, column and rule" }),
    created_at: z.string(),
  })
  .openapi("Import");

const ImportRequestSchema = z
  .object({
    kind: z.enum(IMPORT_KINDS),
    file_name: z
      .string()
      .regex(/^[^/\\]+\.(csv|json)$/i, "must be a file name ending in .csv or .json")
      .openapi({ example: "workday-2026-11-30.csv" }),
    content: z.string().min(1).openapi({ description: "the file's text (UTF-8; a BOM is fine)" }),
    mapping: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "a mapping file's object (docs/import.md)" }),
    dry_run: z.boolean().default(false),
  })
  .openapi("ImportRequest");

const upload = createRoute({
  method: "post",
  path: "/api/imports",
  tags: ["imports"],
  summary: "Import an export (employees, shifts, vanpools or riders): applied whole, or refused changing nothing",
  security,
  request: { body: { required: true, content: { "application/json": { schema: ImportRequestSchema } } } },
  responses: {
    201: json(ImportSchema, "Applied (or, with dry_run, what it would change)"),
    422: json(ImportSchema, "Refused: problems names file, line, column and rule; nothing changed"),
    400: problemContent("The body does not match the schema (errors names the field)"),
    ...AUTH_PROBLEMS,
    413: problemContent("The body is over 10 MB"),
  },
});

const one = createRoute({
  method: "get",
  path: "/api/imports/{id}",
  tags: ["imports"],
  summary: "One import: its outcome, counts and diff field by field",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(ImportSchema, "The import"), ...ONE_PROBLEMS },
});

const present = (r: DataImportRecord, pii: boolean) => {
  const result = r.result as Partial<z.infer<typeof ImportSchema>>;
  const records = (list: z.infer<typeof RecordChangesSchema>[] | undefined) =>
    (list ?? []).map((c) => ({ id: c.id, changes: c.changes.map((f) => presentFieldChange(r.kind, f, pii)) }));
  return {
    id: r.id,
    kind: r.kind as (typeof IMPORT_KINDS)[number],
    source_file: r.source_file,
    actor: r.actor,
    dry_run: r.dry_run,
    outcome: r.outcome,
    counts: result.counts ?? null,
    added: result.added ?? [],
    changed: records(result.changed),
    leaving: records(result.leaving),
    reaudits: result.reaudits ?? [],
    problems: result.problems ?? [],
    created_at: r.created_at.toISOString(),
  };
};

export function registerImportRoutes(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  app.openapi(upload, async (c) => {
    const body = c.req.valid("json");
    const record = await importUpload(deps.agent, {
      kind: body.kind,
      fileName: body.file_name,
      content: body.content,
      mapping: body.mapping,
      dryRun: body.dry_run,
      actor: actorOf(c.get("caller")),
      jobs: deps.jobs,
    });
    return c.json(present(record, seesPersonalData(c.get("caller"))), record.outcome === "refused" ? 422 : 201);
  });
  app.openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const record = await findDataImport(deps.agent.prisma, id);
    if (!record) throw notFound(`No import ${id}.`);
    return c.json(present(record, seesPersonalData(c.get("caller"))), 200);
  });
}
