// The API's shapes, defined once in zod: the handlers' types, the request validation and the OpenAPI
// document all come from these. Fields marked "pii" are present only for tokens with the pii scope.
import { z } from "@hono/zod-openapi";
import { CASE_REASONS, CASE_STATUSES } from "../../domain/case-lifecycle.js";
import { CHECK_KINDS } from "../../domain/specialist-result.js";

const pii = (description: string) => ({ description: `${description} (pii scope only)` });

// Not a named component: zod-to-openapi writes a nullable $ref as allOf [$ref, {type: [object, null]}], which null fails.
export const LatLngSchema = z.object({ lat: z.number(), lng: z.number() });
export const CaseStatusSchema = z.enum(CASE_STATUSES).openapi("CaseStatus");
const Timestamp = z.string().openapi({ format: "date-time", example: "2026-11-24T09:00:00.000Z" });
const Json = z.record(z.string(), z.unknown());

export const PageQuerySchema = z.object({
  cursor: z.string().optional().openapi({ description: "next_cursor of the previous page" }),
  limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: "items per page (1-200)" }),
});

export function pageOf<T extends z.ZodTypeAny>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      next_cursor: z.string().nullable().openapi({ description: "pass as cursor for the next page; null at the end" }),
    })
    .openapi(name);
}

export const IdParamSchema = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" } }),
});

const HomeFields = {
  home_city: z.string(),
  home_state: z.string(),
  home_zip3: z.string().openapi({ example: "951xx" }),
  home_zip: z.string().optional().openapi(pii("full ZIP")),
  home_address: z.string().optional().openapi(pii("street address")),
  home_coords: LatLngSchema.nullable().optional().openapi(pii("exact home coordinates")),
  email: z.string().optional().openapi(pii("email address")),
};

export const RiderSchema = z
  .object({
    employee_id: z.string().openapi({ example: "EMP-1001" }),
    participant_id: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    work_site: z.string(),
    ...HomeFields,
    shift: z.object({ shift_id: z.string(), name: z.string() }).nullable(),
  })
  .openapi("Rider");

const OpenCaseRef = z.object({ case_id: z.string(), status: CaseStatusSchema }).nullable();

export const VanpoolSummarySchema = z
  .object({
    vanpool_id: z.string().openapi({ example: "VP-101" }),
    name: z.string().nullable(),
    status: z.enum(["active", "inactive"]),
    work_site: z.string(),
    capacity: z.number().int(),
    rider_count: z.number().int(),
    flagged: z.boolean().openapi({ description: "an open case is on it" }),
    open_case: OpenCaseRef,
  })
  .openapi("VanpoolSummary");

export const VanpoolSchema = VanpoolSummarySchema.extend({
  work_site_address: z.string(),
  work_site_coords: LatLngSchema,
  pickup_address: z.string().nullable(),
  pickup_coords: LatLngSchema.nullable(),
  coordinator_id: z.string().nullable(),
  operating_schedule: z.array(z.record(z.string(), z.string())).nullable(),
  time_zone: z.string().nullable(),
  riders: z.array(RiderSchema),
}).openapi("Vanpool");

export const VanpoolQuerySchema = PageQuerySchema.extend({
  status: z.enum(["active", "inactive", "flagged"]).optional().openapi({ description: "flagged: an open case" }),
  work_site: z.string().optional(),
});

export const EmployeeSchema = z
  .object({
    employee_id: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    work_site: z.string(),
    status: z.string(),
    time_type: z.string(),
    ...HomeFields,
    shift_id: z.string().nullable(),
    vanpool_ids: z.array(z.string()),
  })
  .openapi("Employee");

export const EmployeeQuerySchema = PageQuerySchema.extend({
  work_site: z.string().optional(),
  shift_id: z.string().optional(),
  vanpool_id: z.string().optional(),
});

export const ShiftsSchema = z
  .object({
    employee_id: z.string(),
    shift: z
      .object({
        shift_id: z.string(),
        name: z.string(),
        schedule: z.array(z.object({ day: z.string(), start_time: z.string(), end_time: z.string() })),
      })
      .nullable(),
    pto_dates: z.array(z.string()),
  })
  .openapi("EmployeeShifts");

export const CaseSchema = z
  .object({
    case_id: z.string().openapi({ example: "CASE-1A2B3C4D5E6F7A8B" }),
    vanpool_id: z.string(),
    status: CaseStatusSchema,
    status_label: z.string().openapi({ example: "waiting for replies" }),
    reason: z.enum(CASE_REASONS),
    failed_checks: z.array(z.enum(CHECK_KINDS)),
    flagged: z.array(z.string()),
    details: z.string(),
    outcome: z.enum(["verified", "resolved", "cancelled"]).nullable(),
    re_audit_count: z.number().int(),
    last_outbound_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    resolved_at: Timestamp.nullable(),
  })
  .openapi("Case");

export const CaseQuerySchema = PageQuerySchema.extend({
  status: CaseStatusSchema.optional(),
  vanpool_id: z.string().optional(),
});

export const TimelineEventSchema = z
  .object({
    at: Timestamp,
    actor: z.string().openapi({ example: "api:reporting" }),
    action: z.string().openapi({ example: "case.status_changed" }),
    subject_type: z.string(),
    subject_id: z.string(),
    details: Json,
  })
  .openapi("TimelineEvent");

export const CheckResultSchema = z
  .object({
    check: z.enum(CHECK_KINDS),
    verdict: z.enum(["pass", "fail", "inconclusive"]),
    confidence: z.number().int(),
    reasoning: z.string(),
    flagged: z.array(z.string()),
    model: z.string(),
    finished_at: Timestamp,
    evidence: z.unknown(),
  })
  .openapi("CheckResult");

export const CaseDetailSchema = CaseSchema.extend({
  evidence: z.object({
    location: CheckResultSchema.optional(),
    shift: CheckResultSchema.optional(),
    employment: CheckResultSchema.optional(),
  }),
  timeline: z.array(TimelineEventSchema),
}).openapi("CaseDetail");

export const MessageSchema = z
  .object({
    message_id: z.string(),
    direction: z.enum(["inbound", "outbound"]),
    status: z.string(),
    at: Timestamp,
    subject: z.string(),
    body: z.string().openapi({ description: "personal details redacted without the pii scope" }),
    bucket: z.enum(["acknowledgment", "question", "update", "escalation"]).nullable(),
    confidence: z.number().nullable(),
    from_employee_id: z.string().nullable(),
    to_employee_ids: z.array(z.string()),
    from: z.string().optional().openapi(pii("sender address")),
    to: z.array(z.string()).optional().openapi(pii("recipient addresses")),
  })
  .openapi("Message");

export const ThreadSummarySchema = z
  .object({
    thread_id: z.string(),
    case_id: z.string(),
    vanpool_id: z.string(),
    subject: z.string(),
    status: z.string(),
    message_count: z.number().int(),
    created_at: Timestamp,
  })
  .openapi("ThreadSummary");

export const ThreadSchema = z
  .object({
    thread_id: z.string(),
    case_id: z.string(),
    vanpool_id: z.string(),
    subject: z.string(),
    messages: z.array(MessageSchema),
  })
  .openapi("Thread");

export const ThreadQuerySchema = PageQuerySchema.extend({
  case_id: z.string().optional(),
  vanpool_id: z.string().optional(),
});

export const ChangeSchema = TimelineEventSchema.extend({ id: z.string() }).openapi("Change");

export const ChangeQuerySchema = PageQuerySchema.extend({
  subject_id: z.string().optional().openapi({ description: "a case, vanpool, approval or thread id" }),
  actor: z.string().optional().openapi({ description: "e.g. api:reporting, slack:U0123, cli" }),
});

/** A JSON response in an OpenAPI route's `responses`. */
export const jsonContent = <T>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** Every /api route takes a token. */
export const TOKEN_SECURITY = [{ token: [] }];
