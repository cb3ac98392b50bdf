// The shifts of `poolpatrol import shifts`: a workforce schedule export, one row per shift with its
// working days ("Mon-Fri") and its start and end (12- or 24-hour). The pipeline is record-import.ts.
import { type ShiftFixture, shiftFixture } from "./fixture-schema.js";
import { type ImportKind, mappingSchemaFor } from "./record-import.js";
import { scheduleColumns, scheduleOf } from "./schedule-columns.js";

export const SHIFT_FIELDS = ["shift_id", "name", "days", "start_time", "end_time"] as const;
export type ShiftField = (typeof SHIFT_FIELDS)[number];

export const shiftMappingSchema = mappingSchemaFor(SHIFT_FIELDS);

export const shiftKind: ImportKind<ShiftFixture, ShiftField> = {
  name: "shifts",
  noun: "shift",
  fields: SHIFT_FIELDS,
  required: SHIFT_FIELDS,
  idField: "shift_id",
  checked: ["days", "start_time", "end_time"],
  build: (read) => ({ id: read.raw("shift_id"), name: read.raw("name"), schedule: scheduleOf(read) ?? [] }),
  schema: shiftFixture,
  fieldOf: ([top, , part]) =>
    top === "id" ? "shift_id" : top === "schedule" ? scheduleField(part) : (top as ShiftField),
  text: (s) => ({ shift_id: s.id, name: s.name, ...scheduleColumns(s.schedule) }),
  merge: (incoming) => incoming,
  // Shifts have no status: one absent from the file stays, as the employees on it still name it.
  leave: () => null,
};

const scheduleField = (part: PropertyKey | undefined): ShiftField =>
  part === "start_time" ? "start_time" : part === "end_time" ? "end_time" : "days";
