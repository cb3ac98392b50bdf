// GET /api/employees (filters, cursor), /api/employees/{id}, /api/employees/{id}/shifts.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { findEmployees, listEmployees } from "../../data/api-read-repository.js";
import { findEmployeeProfile } from "../../data/vanpool-repository.js";
import { notFound } from "../../errors.js";
import { seesPersonalData } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { decodeCursor, isString, jsonWithETag, page } from "./paging.js";
import { presentEmployee } from "./present.js";
import { NOT_MODIFIED, ONE_PROBLEMS, READ_PROBLEMS } from "./problem.js";
import {
  EmployeeQuerySchema,
  EmployeeSchema,
  IdParamSchema,
  jsonContent as json,
  pageOf,
  ShiftsSchema,
  TOKEN_SECURITY as security,
} from "./schemas.js";

const list = createRoute({
  method: "get",
  path: "/api/employees",
  tags: ["employees"],
  summary: "Employees by id, filtered by work site, shift or vanpool",
  security,
  request: { query: EmployeeQuerySchema },
  responses: { 200: json(pageOf(EmployeeSchema, "EmployeePage"), "A page of employees"), ...READ_PROBLEMS },
});

const one = createRoute({
  method: "get",
  path: "/api/employees/{id}",
  tags: ["employees"],
  summary: "One employee's profile",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(EmployeeSchema, "The employee"), ...NOT_MODIFIED, ...ONE_PROBLEMS },
});

const shifts = createRoute({
  method: "get",
  path: "/api/employees/{id}/shifts",
  tags: ["employees"],
  summary: "An employee's shift schedule and paid time off",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(ShiftsSchema, "The shift schedule"), ...ONE_PROBLEMS },
});

const missing = (id: string) => notFound(`No employee ${id}. Employee ids look like EMP-1001.`);

export function registerEmployeeRoutes(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  const { pool, prisma } = deps.agent;

  app.openapi(list, async (c) => {
    const { cursor, limit, work_site, shift_id, vanpool_id } = c.req.valid("query");
    const rows = await listEmployees(pool, {
      workSite: work_site,
      shiftId: shift_id,
      vanpoolId: vanpool_id,
      afterId: decodeCursor(cursor, isString),
      limit: limit + 1,
    });
    const pii = seesPersonalData(c.get("caller"));
    const result = page(rows, limit, (last) => last.employee_id);
    return c.json({ items: result.items.map((e) => presentEmployee(e, pii)), next_cursor: result.next_cursor }, 200);
  });

  app.openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const [employee] = await findEmployees(pool, [id]);
    if (!employee) throw missing(id);
    return jsonWithETag(c, presentEmployee(employee, seesPersonalData(c.get("caller"))));
  });

  app.openapi(shifts, async (c) => {
    const { id } = c.req.valid("param");
    const profile = await findEmployeeProfile(prisma, id);
    if (!profile) throw missing(id);
    return c.json(
      {
        employee_id: profile.employee_id,
        shift: profile.shift
          ? {
              shift_id: profile.shift.shift_id,
              name: profile.shift.name,
              schedule: profile.shift.schedule.map((d) => ({
                day: d.day,
                start_time: d.start_time,
                end_time: d.end_time,
              })),
            }
          : null,
        pto_dates: profile.pto_dates,
      },
      200,
    );
  });
}
