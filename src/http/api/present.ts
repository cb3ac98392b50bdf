// Records as the API shows them. Without the pii scope (docs/redaction.md): a home is its city and
// ZIP3, never a street address, full ZIP, email address or exact coordinates, and stored text
// (evidence, audit details, email bodies) passes through the same redaction Slack uses.

import type { z } from "@hono/zod-openapi";
import type { CheckResultRecord, EmployeeRecord } from "../../data/api-read-repository.js";
import type { AuditEventRecord } from "../../data/audit-log.js";
import type { CaseRecord } from "../../data/case-repository.js";
import type { MessageRecord } from "../../data/email-repository.js";
import { STATUS_LABEL } from "../../domain/case-lifecycle.js";
import type { LatLng } from "../../domain/geo.js";
import { redactPersonalDetails, redactRecord, zip3 } from "../../domain/redaction.js";
import type { RiderSnapshot } from "../../domain/snapshot.js";
import { CHECK_KINDS, type CheckKind } from "../../domain/specialist-result.js";
import { addressOf } from "../../integrations/email/reply-address.js";
import type {
  CaseDetailSchema,
  CaseSchema,
  EmployeeSchema,
  MessageSchema,
  RiderSchema,
  TimelineEventSchema,
} from "./schemas.js";

interface Home {
  home_city: string;
  home_state: string;
  home_zip: string;
  home_address?: string;
  home_coords: LatLng | null;
  email: string;
}

/** An employee field whose values only the pii scope reads: a home's street, full ZIP, coordinates, an email. */
const PERSONAL_FIELDS = new Set(["home_address", "home_zip", "home_lat", "home_lng", "email"]);

/**
 * A field an import changed, as `homeFields` shows a home: without pii a ZIP is its ZIP3 and the other
 * personal fields' values are withheld (the field is still named).
 */
export function presentFieldChange(
  kind: string,
  change: { field: string; old: string | null; new: string | null },
  pii: boolean,
) {
  if (pii || kind !== "employees" || !PERSONAL_FIELDS.has(change.field)) return change;
  if (change.field === "home_zip")
    return { field: change.field, old: change.old && zip3(change.old), new: change.new && zip3(change.new) };
  return { field: change.field, old: null, new: null, withheld: true as const };
}

function homeFields(home: Home, pii: boolean) {
  return {
    home_city: home.home_city,
    home_state: home.home_state,
    home_zip3: zip3(home.home_zip),
    ...(pii
      ? {
          home_zip: home.home_zip,
          ...(home.home_address !== undefined ? { home_address: home.home_address } : {}),
          home_coords: home.home_coords,
          email: home.email,
        }
      : {}),
  };
}

export function presentRider(
  rider: RiderSnapshot,
  pii: boolean,
  homeAddress: string | undefined,
): z.infer<typeof RiderSchema> {
  return {
    employee_id: rider.employee_id,
    participant_id: rider.participant_id,
    first_name: rider.first_name,
    last_name: rider.last_name,
    work_site: rider.work_site,
    ...homeFields({ ...rider, home_address: homeAddress }, pii),
    shift: rider.shift ? { shift_id: rider.shift.shift_id, name: rider.shift.name } : null,
  };
}

export function presentEmployee(e: EmployeeRecord, pii: boolean): z.infer<typeof EmployeeSchema> {
  return {
    employee_id: e.employee_id,
    first_name: e.first_name,
    last_name: e.last_name,
    work_site: e.work_site,
    status: e.status,
    time_type: e.time_type,
    ...homeFields(
      {
        ...e,
        home_coords: e.home_lat === null || e.home_lng === null ? null : { lat: e.home_lat, lng: e.home_lng },
      },
      pii,
    ),
    shift_id: e.shift_id,
    vanpool_ids: e.vanpool_ids,
  };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentCase(c: CaseRecord): z.infer<typeof CaseSchema> {
  return {
    case_id: c.case_id,
    vanpool_id: c.vanpool_id,
    status: c.status,
    status_label: STATUS_LABEL[c.status] ?? c.status,
    reason: c.reason,
    failed_checks: c.failed_checks,
    flagged: c.flagged,
    details: c.details,
    outcome: c.outcome,
    re_audit_count: c.re_audit_count,
    last_outbound_at: iso(c.last_outbound_at),
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    resolved_at: iso(c.resolved_at),
  };
}

export function presentEvent(e: AuditEventRecord, pii: boolean): z.infer<typeof TimelineEventSchema> {
  return {
    at: e.at.toISOString(),
    actor: e.actor,
    action: e.action,
    subject_type: e.subject_type,
    subject_id: e.subject_id,
    details: pii ? e.details : redactRecord(e.details),
  };
}

/** `places`: the van's work site and pickup addresses, shown as they are. */
export function presentEvidence(
  evidence: Partial<Record<CheckKind, CheckResultRecord>>,
  pii: boolean,
  places: (string | null)[],
): z.infer<typeof CaseDetailSchema>["evidence"] {
  const out: z.infer<typeof CaseDetailSchema>["evidence"] = {};
  for (const check of CHECK_KINDS) {
    const r = evidence[check];
    if (!r) continue;
    out[check] = {
      check,
      verdict: r.verdict,
      confidence: r.confidence,
      reasoning: pii ? r.reasoning : redactPersonalDetails(r.reasoning, places),
      flagged: r.flagged,
      model: r.model,
      finished_at: r.finished_at.toISOString(),
      evidence: pii ? r.evidence : redactRecord(r.evidence, places),
    };
  }
  return out;
}

/** `employees`: employee ids by lower-case address, to name who wrote and who was written to. */
export function presentMessage(
  m: MessageRecord,
  employees: Map<string, string>,
  pii: boolean,
): z.infer<typeof MessageSchema> {
  const idOf = (address: string) => employees.get(addressOf(address)) ?? null;
  return {
    message_id: m.message_id,
    direction: m.direction,
    status: m.status,
    at: m.at.toISOString(),
    subject: pii ? m.subject : redactPersonalDetails(m.subject),
    body: pii ? m.body : redactPersonalDetails(m.body),
    bucket: m.bucket,
    confidence: m.confidence,
    from_employee_id: idOf(m.from),
    to_employee_ids: m.to.map(idOf).filter((id): id is string => id !== null),
    ...(pii ? { from: m.from, to: m.to } : {}),
  };
}
