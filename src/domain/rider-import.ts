// The riders of `poolpatrol import riders`: the vanpool provider's roster, one row per seat
// (participant id, vanpool, employee). The file is the whole roster: a stored rider absent from it
// has left the van (status removed, never deleted). The pipeline is record-import.ts.
import { z } from "zod";
import { employeeFixture, vanpoolFixture } from "./fixture-schema.js";
import { type ImportKind, mappingSchemaFor } from "./record-import.js";

export const RIDER_FIELDS = ["participant_id", "vanpool_id", "employee_id", "status"] as const;
export type RiderField = (typeof RIDER_FIELDS)[number];

export const riderRecordSchema = z
  .object({
    participant_id: z.string().min(1),
    vanpool_id: vanpoolFixture.shape.vanpool_id,
    employee_id: employeeFixture.shape.employee_id,
    status: z.enum(["active", "removed"]).default("active"),
  })
  .strict();
export type RiderRecord = z.infer<typeof riderRecordSchema>;

export const riderMappingSchema = mappingSchemaFor(RIDER_FIELDS);

export const riderKind: ImportKind<RiderRecord, RiderField> = {
  name: "riders",
  noun: "rider",
  fields: RIDER_FIELDS,
  required: ["participant_id", "vanpool_id", "employee_id"],
  idField: "participant_id",
  checked: ["status"],
  build: (read) => ({
    participant_id: read.raw("participant_id"),
    vanpool_id: read.raw("vanpool_id"),
    employee_id: read.raw("employee_id"),
    status: read.optional("status") ?? "active",
  }),
  schema: riderRecordSchema,
  fieldOf: ([top]) => top as RiderField | undefined,
  text: (r) => ({ ...r }),
  merge: (incoming) => incoming,
  leave: (before) => (before.status === "removed" ? null : { ...before, status: "removed" }),
  refs: ["vanpools", "employeeIds"],
  checker: (stored, refs) => {
    const seatOf = new Map([...stored.values()].map((r) => [`${r.vanpool_id}|${r.employee_id}`, r.participant_id]));
    const ridesIn = new Map<string, string>();
    return (r) => {
      const problems: { field: RiderField; rule: string }[] = [];
      const runs = refs.vanpools.get(r.vanpool_id);
      if (runs === undefined) problems.push({ field: "vanpool_id", rule: `no vanpool "${r.vanpool_id}" is stored` });
      if (!refs.employeeIds.has(r.employee_id))
        problems.push({ field: "employee_id", rule: `no employee "${r.employee_id}" is stored` });
      const before = stored.get(r.participant_id);
      if (before && (before.employee_id !== r.employee_id || before.vanpool_id !== r.vanpool_id))
        problems.push({
          field: "participant_id",
          rule: `${r.participant_id} is ${before.employee_id} on ${before.vanpool_id}; a participant id is never reused (give a new seat a new id)`,
        });
      const seat = seatOf.get(`${r.vanpool_id}|${r.employee_id}`);
      if (!before && seat && seat !== r.participant_id)
        problems.push({
          field: "participant_id",
          rule: `${r.employee_id} already has the seat ${seat} on ${r.vanpool_id}; list it under that id`,
        });
      if (r.status === "active" && runs) {
        const other = ridesIn.get(r.employee_id);
        if (other && other !== r.vanpool_id)
          problems.push({
            field: "employee_id",
            rule: `${r.employee_id} would ride two active vans (${other} and ${r.vanpool_id})`,
          });
        else ridesIn.set(r.employee_id, r.vanpool_id);
      }
      return problems;
    };
  },
};
