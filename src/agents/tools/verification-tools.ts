// The data reads and checks the specialists call, as LangChain tools with the
// seeds' names. Each answers JSON; an unknown id answers { error } so a model can
// recover instead of the run failing. Home street addresses are never returned.
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { VerificationPolicy } from "../../config/settings.js";
import type { PrismaClient } from "../../data/prisma.js";
import { findEmployeeProfile, findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import { describeSchedule } from "../../domain/schedule.js";
import type { DistanceProvider } from "../../integrations/distance/index.js";
import { checkLocation } from "../../verification/location-check.js";

export interface VerificationToolDeps {
  prisma: PrismaClient;
  distance: DistanceProvider;
  policy: VerificationPolicy;
}

const employeeId = z.string().describe("Employee id, like EMP-1001");
const vanpoolId = z.string().describe("Vanpool id, like VP-101");
const answer = (value: unknown) => JSON.stringify(value);

export function createVerificationTools(deps: VerificationToolDeps) {
  const getEmployeeProfile = tool(
    async ({ employee_id }) => {
      const profile = await findEmployeeProfile(deps.prisma, employee_id);
      if (!profile) return answer({ error: `No employee ${employee_id}.` });
      return answer({
        employee_id: profile.employee_id,
        name: `${profile.first_name} ${profile.last_name}`,
        work_site: profile.work_site,
        home_city: profile.home_city,
        home_state: profile.home_state,
        home_zip: profile.home_zip,
        home_coords: profile.home_coords,
        status: profile.status,
        vanpool_ids: profile.vanpool_ids,
      });
    },
    {
      name: "get_employee_profile",
      description:
        "Fetch an employee's home ZIP, home coordinates (when on file), work site and vanpools. Never returns a street address.",
      schema: z.object({ employee_id: employeeId }),
    },
  );

  const checkCommuteDistance = tool(
    async ({ employee_id, vanpool_id }) => {
      const [profile, vanpool] = await Promise.all([
        findEmployeeProfile(deps.prisma, employee_id),
        findVanpoolSnapshot(deps.prisma, vanpool_id),
      ]);
      if (!profile) return answer({ error: `No employee ${employee_id}.` });
      if (!vanpool) return answer({ error: `No vanpool ${vanpool_id}.` });
      const result = await checkLocation(
        {
          vanpool: {
            vanpool_id,
            work_site_coords: vanpool.work_site_coords,
            pickup_coords: vanpool.pickup_coords,
            work_site_address: vanpool.work_site_address,
            pickup_address: vanpool.pickup_address,
          },
          riders: [
            { employee_id, home_zip: profile.home_zip, home_coords: profile.home_coords, home_city: profile.home_city },
          ],
        },
        deps.distance,
        { maxDistanceMiles: deps.policy.maxDistanceMiles },
      );
      const pickup = result.evidence.find((e) => e.type === "vanpool_pickup");
      const home = result.evidence.find((e) => e.type === "employee_profile");
      const distance = result.evidence.find((e) => e.type === "distance_check");
      return answer({
        employee_id,
        vanpool_id,
        verdict: result.verdict,
        distance_miles: distance?.distance_miles,
        method: distance?.method,
        ...(distance?.fallback_reason ? { fallback_reason: distance.fallback_reason } : {}),
        threshold_miles: deps.policy.maxDistanceMiles,
        home_point_source: home?.home_point_source,
        pickup_point_source: pickup?.point_source,
      });
    },
    {
      name: "check_commute_distance",
      description:
        "Distance in miles from an employee's home to a vanpool's pickup point, compared with the program's threshold.",
      schema: z.object({ employee_id: employeeId, vanpool_id: vanpoolId }),
    },
  );

  const getEmployeeShifts = tool(
    async ({ employee_id }) => {
      const profile = await findEmployeeProfile(deps.prisma, employee_id);
      if (!profile) return answer({ error: `No employee ${employee_id}.` });
      return answer({
        employee_id,
        shift_id: profile.shift?.shift_id ?? null,
        shift_name: profile.shift?.name ?? null,
        schedule: profile.shift?.schedule ?? null,
        description: profile.shift ? describeSchedule(profile.shift.schedule) : "no shift on record",
        pto_dates: profile.pto_dates,
        time_type: profile.time_type,
      });
    },
    {
      name: "get_employee_shifts",
      description:
        "Fetch an employee's shift assignment, weekly schedule (24-hour times; an end before the start ends next day) and PTO dates.",
      schema: z.object({ employee_id: employeeId }),
    },
  );

  const getVanpoolRoster = tool(
    async ({ vanpool_id }) => {
      const vanpool = await findVanpoolSnapshot(deps.prisma, vanpool_id);
      if (!vanpool) return answer({ error: `No vanpool ${vanpool_id}.` });
      return answer({
        vanpool_id,
        name: vanpool.name,
        status: vanpool.status,
        work_site: vanpool.work_site,
        pickup: vanpool.pickup_address ?? vanpool.work_site_address,
        capacity: vanpool.capacity,
        coordinator_id: vanpool.coordinator_id,
        operating_schedule: vanpool.operating_schedule ? describeSchedule(vanpool.operating_schedule) : null,
        riders: vanpool.riders.map((r) => ({
          employee_id: r.employee_id,
          name: `${r.first_name} ${r.last_name}`,
          home_city: r.home_city,
          home_zip: r.home_zip,
          shift_name: r.shift?.name ?? null,
          shift: r.shift ? describeSchedule(r.shift.schedule) : null,
        })),
      });
    },
    {
      name: "get_vanpool_roster",
      description:
        "Fetch a vanpool's roster: riders with their home city/ZIP and shift, the van's schedule, pickup and capacity.",
      schema: z.object({ vanpool_id: vanpoolId }),
    },
  );

  return { getEmployeeProfile, checkCommuteDistance, getEmployeeShifts, getVanpoolRoster };
}
