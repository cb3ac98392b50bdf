// A vanpool as the checks see it: plain data, read once, with its active riders.
import type { LatLng } from "./geo.js";
import type { Schedule } from "./schedule.js";

export interface RiderSnapshot {
  employee_id: string;
  participant_id: string;
  first_name: string;
  last_name: string;
  email: string;
  work_site: string;
  home_city: string;
  home_state: string;
  home_zip: string;
  home_coords: LatLng | null;
  shift: { shift_id: string; name: string; schedule: Schedule } | null;
  pto_dates: string[];
  /** employees.status, the HR export's separation date, and when the status last changed (by which import). */
  employment: { status: string; separation_date: string | null; status_since: { on: string; source: string } | null };
}

export interface VanpoolSnapshot {
  vanpool_id: string;
  name: string | null;
  status: "active" | "inactive";
  work_site: string;
  work_site_address: string;
  work_site_coords: LatLng;
  pickup_address: string | null;
  pickup_coords: LatLng | null;
  capacity: number;
  coordinator_id: string | null;
  operating_schedule: Schedule | null;
  time_zone: string | null;
  riders: RiderSnapshot[];
}
