// Deterministic load data in the fixture shapes: N vanpools of about six riders at
// three sites, mixed shifts and home ZIPs, about 10% failing one check.
import zipcodes from "zipcodes";
import type { EmployeeFixture, ShiftFixture, VanpoolFixture } from "../domain/fixture-schema.js";
import type { Weekday } from "../domain/schedule.js";
import type { Fixtures } from "./fixtures.js";

const SITES = [
  { name: "San Jose HQ", address: "2100 Orchard Pkwy, San Jose, CA 95131", zip: "95131", lat: 37.3893, lng: -121.915 },
  {
    name: "Fremont Assembly",
    address: "45500 Fremont Blvd, Fremont, CA 94538",
    zip: "94538",
    lat: 37.4964,
    lng: -121.943,
  },
  {
    name: "Sacramento Distribution",
    address: "8800 Power Inn Rd, Sacramento, CA 95828",
    zip: "95828",
    lat: 38.488,
    lng: -121.401,
  },
];
/** Homes well beyond 50 miles of every site (Fresno, Monterey, Redding, Bakersfield). */
const FAR_ZIPS = ["93721", "93940", "96001", "93301"];

const weekdays: Weekday[] = ["Mon", "Tue", "Wed", "Thu", "Fri"];
const days = (list: Weekday[], start: string, end: string) =>
  list.map((day) => ({ day, start_time: start, end_time: end }));
export const SYNTHETIC_SHIFTS: ShiftFixture[] = [
  { id: "SHIFT_LOAD_DAY", name: "Day (load test)", schedule: days(weekdays, "07:00", "15:30") },
  { id: "SHIFT_LOAD_SWING", name: "Swing (load test)", schedule: days(weekdays, "14:00", "22:30") },
  { id: "SHIFT_LOAD_NIGHT", name: "Night (load test)", schedule: days(weekdays, "22:00", "06:30") },
  {
    id: "SHIFT_LOAD_4X10",
    name: "Compressed 4x10 (load test)",
    schedule: days(["Mon", "Tue", "Wed", "Thu"], "06:00", "16:30"),
  },
  { id: "SHIFT_LOAD_WEEKEND", name: "Weekend (load test)", schedule: days(["Fri", "Sat", "Sun"], "06:00", "18:30") },
];
const VAN_SHIFT_WEIGHTS: [string, number][] = [
  ["SHIFT_LOAD_DAY", 0.55],
  ["SHIFT_LOAD_SWING", 0.15],
  ["SHIFT_LOAD_NIGHT", 0.15],
  ["SHIFT_LOAD_4X10", 0.1],
  ["SHIFT_LOAD_WEEKEND", 0.05],
];
const CONFLICT: Record<string, string> = {
  SHIFT_LOAD_DAY: "SHIFT_LOAD_NIGHT",
  SHIFT_LOAD_SWING: "SHIFT_LOAD_DAY",
  SHIFT_LOAD_NIGHT: "SHIFT_LOAD_DAY",
  SHIFT_LOAD_4X10: "SHIFT_LOAD_SWING",
  SHIFT_LOAD_WEEKEND: "SHIFT_LOAD_DAY",
};
const FIRST = [
  "Ana",
  "Ben",
  "Chen",
  "Dana",
  "Eli",
  "Fatima",
  "Gus",
  "Hana",
  "Ivan",
  "Jia",
  "Kofi",
  "Lena",
  "Mateo",
  "Nia",
  "Omar",
  "Priya",
  "Quinn",
  "Rosa",
  "Sam",
  "Tariq",
];
const LAST = [
  "Alvarez",
  "Brooks",
  "Cho",
  "Diaz",
  "Evans",
  "Fong",
  "Garcia",
  "Hughes",
  "Ito",
  "Jones",
  "Khan",
  "Lopez",
  "Meyer",
  "Nguyen",
  "Ortiz",
  "Patel",
  "Reyes",
  "Singh",
  "Tran",
  "Wu",
];

export function generateSyntheticFixtures(count: number, seed = 42): Fixtures {
  const random = mulberry32(seed);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const nearZips = SITES.map((site) =>
    zipcodes.radius(site.zip, 35).filter((z): z is string => typeof z === "string" && zipcodes.lookup(z) !== undefined),
  );
  const employees: EmployeeFixture[] = [];
  const vanpools: VanpoolFixture[] = [];

  for (let v = 0; v < count; v++) {
    const siteIndex = v % SITES.length;
    const site = SITES[siteIndex]!;
    const vanShift = weighted(random, VAN_SHIFT_WEIGHTS);
    const riderCount = 5 + Math.floor(random() * 3); // 5..7, about 6
    const failure = random();
    const vanpoolId = `VP-${100000 + v}`;
    const riders: VanpoolFixture["riders"] = [];
    for (let r = 0; r < riderCount; r++) {
      const employeeId = `EMP-${1000000 + v * 10 + r}`;
      const farHome = failure < 0.05 && r === 0;
      const shiftConflict = failure >= 0.05 && failure < 0.1 && r === 0;
      const zip = farHome ? pick(FAR_ZIPS) : pick(nearZips[siteIndex]!);
      const place = zipcodes.lookup(zip)!;
      const first = pick(FIRST);
      const last = pick(LAST);
      employees.push({
        employee_id: employeeId,
        first_name: first,
        last_name: last,
        email: `${first}.${last}.${employeeId.slice(4)}@load.example`.toLowerCase(),
        work_site: site.name,
        home_address: `${100 + Math.floor(random() * 9800)} Elm St`,
        home_city: place.city,
        home_state: place.state,
        home_zip: zip,
        home_coords: null,
        shift_id: shiftConflict ? CONFLICT[vanShift]! : vanShift,
        pto_dates: [],
        time_type: "full_time",
        supervisor: null,
        status: "active",
      });
      riders.push({ participant_id: `P-L${v * 10 + r}`, employee_id: employeeId });
    }
    vanpools.push({
      vanpool_id: vanpoolId,
      name: `${site.name} load van ${v}`,
      work_site: site.name,
      work_site_address: site.address,
      work_site_coords: { lat: site.lat, lng: site.lng },
      pickup_address: null,
      pickup_coords: null,
      capacity: 8,
      coordinator_id: riders[0]!.employee_id,
      status: "active",
      operating_schedule: null,
      time_zone: "America/Los_Angeles",
      riders,
    });
  }
  return { shifts: SYNTHETIC_SHIFTS, employees, vanpools, cases: [], emailThreads: [] };
}

function weighted(random: () => number, options: [string, number][]): string {
  let roll = random();
  for (const [value, weight] of options) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return options.at(-1)![0];
}

/** Small seeded PRNG: the same N gives the same rows every time. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
