// The vanpools of `poolpatrol import vanpools`: the vanpool provider's list of vans, one row each,
// its operating schedule as days and times like a shift's. Riders come in their own file
// (rider-import.ts). The pipeline is record-import.ts.
import { vanpoolFixture } from "./fixture-schema.js";
import { coordsOf, type ImportKind, mappingSchemaFor } from "./record-import.js";
import { scheduleColumns, scheduleOf } from "./schedule-columns.js";

export const VANPOOL_FIELDS = [
  "vanpool_id",
  "name",
  "work_site",
  "work_site_address",
  "work_site_lat",
  "work_site_lng",
  "pickup_address",
  "pickup_lat",
  "pickup_lng",
  "capacity",
  "coordinator_id",
  "status",
  "days",
  "start_time",
  "end_time",
  "time_zone",
] as const;
export type VanpoolField = (typeof VANPOOL_FIELDS)[number];

export const vanpoolRecordSchema = vanpoolFixture.omit({ riders: true });
export type VanpoolRecord = ReturnType<typeof vanpoolRecordSchema.parse>;

export const vanpoolMappingSchema = mappingSchemaFor(VANPOOL_FIELDS);

export const vanpoolKind: ImportKind<VanpoolRecord, VanpoolField> = {
  name: "vanpools",
  noun: "vanpool",
  fields: VANPOOL_FIELDS,
  required: ["vanpool_id", "work_site", "work_site_address", "work_site_lat", "work_site_lng", "capacity"],
  idField: "vanpool_id",
  // Where riders are picked up or dropped (the work site when there is no pickup) and when it runs.
  checked: [
    "work_site",
    "work_site_address",
    "work_site_lat",
    "work_site_lng",
    "pickup_address",
    "pickup_lat",
    "pickup_lng",
    "status",
    "days",
    "start_time",
    "end_time",
    "time_zone",
  ],
  together: [
    ["work_site_lat", "work_site_lng"],
    ["pickup_lat", "pickup_lng"],
    ["start_time", "days"],
    ["end_time", "days"],
  ],
  build: (read) => ({
    vanpool_id: read.raw("vanpool_id"),
    name: read.optional("name"),
    work_site: read.raw("work_site"),
    work_site_address: read.raw("work_site_address"),
    work_site_coords: coordsOf(read.number("work_site_lat"), read.number("work_site_lng")) ?? undefined,
    pickup_address: read.optional("pickup_address"),
    pickup_coords: coordsOf(read.number("pickup_lat"), read.number("pickup_lng")),
    capacity: read.number("capacity") ?? undefined,
    coordinator_id: read.optional("coordinator_id"),
    status: read.optional("status") ?? "active",
    operating_schedule: scheduleOf(read),
    time_zone: read.optional("time_zone"),
  }),
  schema: vanpoolRecordSchema,
  fieldOf: ([top, index, part]) => {
    if (top === "work_site_coords" || top === "pickup_coords")
      return `${top === "pickup_coords" ? "pickup" : "work_site"}_${index === "lng" ? "lng" : "lat"}` as VanpoolField;
    if (top === "operating_schedule") return part === "start_time" || part === "end_time" ? part : "days";
    return top as VanpoolField | undefined;
  },
  text: (v) => ({
    vanpool_id: v.vanpool_id,
    name: v.name ?? null,
    work_site: v.work_site,
    work_site_address: v.work_site_address,
    work_site_lat: String(v.work_site_coords.lat),
    work_site_lng: String(v.work_site_coords.lng),
    pickup_address: v.pickup_address ?? null,
    pickup_lat: v.pickup_coords ? String(v.pickup_coords.lat) : null,
    pickup_lng: v.pickup_coords ? String(v.pickup_coords.lng) : null,
    capacity: String(v.capacity),
    coordinator_id: v.coordinator_id ?? null,
    status: v.status,
    ...scheduleColumns(v.operating_schedule),
    time_zone: v.time_zone ?? null,
  }),
  merge: (incoming, before, carried) => ({
    ...incoming,
    name: carried.has("name") ? incoming.name : before.name,
    pickup_address: carried.has("pickup_address") ? incoming.pickup_address : before.pickup_address,
    pickup_coords: carried.has("pickup_lat") ? incoming.pickup_coords : before.pickup_coords,
    coordinator_id: carried.has("coordinator_id") ? incoming.coordinator_id : before.coordinator_id,
    status: carried.has("status") ? incoming.status : before.status,
    operating_schedule: carried.has("days") ? incoming.operating_schedule : before.operating_schedule,
    time_zone: carried.has("time_zone") ? incoming.time_zone : before.time_zone,
  }),
  leave: (before) => (before.status === "inactive" ? null : { ...before, status: "inactive" }),
  refs: ["employeeIds"],
  checker: (_stored, refs) => (v) =>
    v.coordinator_id && !refs.employeeIds.has(v.coordinator_id)
      ? [{ field: "coordinator_id", rule: `no employee "${v.coordinator_id}" is stored` }]
      : [],
};
