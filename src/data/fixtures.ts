// Reads a fixture folder (mock/ or `--from DIR`) and validates it completely before
// anything is written: every problem names the file, the record and the field.
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { isClosed } from "../domain/case-lifecycle.js";
import { cleanStringsIn } from "../domain/clean-text.js";
import {
  type CaseFixture,
  type EmailThreadFixture,
  type EmployeeFixture,
  fixtureFiles,
  type ShiftFixture,
  type VanpoolFixture,
} from "../domain/fixture-schema.js";
import { AppError } from "../errors.js";

export interface Fixtures {
  shifts: ShiftFixture[];
  employees: EmployeeFixture[];
  vanpools: VanpoolFixture[];
  cases: CaseFixture[];
  emailThreads: EmailThreadFixture[];
}

/** Ids already in the database, so a folder may refer to rows it does not carry. */
export interface ExistingIds {
  shifts: Set<string>;
  /** Employee id -> email. */
  employees: Map<string, string>;
  vanpools: Set<string>;
  /** Case id -> its vanpool and whether it is open. */
  cases: Map<string, { vanpoolId: string; open: boolean }>;
  /** Thread id -> its case. */
  threads: Map<string, string>;
  /** Message id -> its thread, for the messages the folder names. */
  messages: Map<string, string>;
  /** Every rider row already stored; active: a current rider of an active vanpool. */
  riders: { participantId: string; vanpoolId: string; employeeId: string; active: boolean }[];
}

export class FixtureError extends AppError {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 20);
    super(
      "invalid_input",
      `Refused to import: ${plural(problems.length)} found, nothing was changed.\n${shown.map((p) => `  - ${p}`).join("\n")}${problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : ""}`,
    );
    this.name = "FixtureError";
  }
}

const plural = (n: number) => `${n} problem${n === 1 ? "" : "s"}`;
export type FileName = keyof typeof fixtureFiles;
const idField: Record<FileName, string> = {
  "shifts.json": "id",
  "employees.json": "employee_id",
  "vanpools.json": "vanpool_id",
  "cases.json": "case_id",
  "email_threads.json": "thread_id",
};

/** The fixture files of the folder that are there; refuses a folder with none. */
export function fixtureFilesIn(dir: string): FileName[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new FixtureError([`${dir}: not a folder`]);
  const present = (Object.keys(fixtureFiles) as FileName[]).filter((f) => fs.existsSync(path.join(dir, f)));
  if (present.length === 0)
    throw new FixtureError([`${dir}: none of ${Object.keys(fixtureFiles).join(", ")} is there`]);
  return present;
}

/** Reads and checks the folder's fixture files (`only`: just those; the others read as empty). */
export function readFixtureDir(dir: string, only?: FileName[]): Fixtures {
  const present = fixtureFilesIn(dir).filter((f) => !only || only.includes(f));

  const problems: string[] = [];
  const read = <F extends FileName>(file: F): z.infer<(typeof fixtureFiles)[F]>[] => {
    if (!present.includes(file)) return [];
    let data: unknown;
    try {
      data = cleanStringsIn(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
    } catch (error) {
      problems.push(`${file}: not valid JSON (${(error as Error).message})`);
      return [];
    }
    if (!Array.isArray(data)) {
      problems.push(`${file}: must be a JSON array of records`);
      return [];
    }
    const records: z.infer<(typeof fixtureFiles)[F]>[] = [];
    const seen = new Set<string>();
    data.forEach((raw, index) => {
      const label = recordLabel(file, index, raw);
      const parsed = fixtureFiles[file].safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = issue.path.length > 0 ? formatPath(issue.path) : "(record)";
          problems.push(
            `${label}: field "${field}": ${issue.code === "unrecognized_keys" ? issue.message : describeIssue(issue)}`,
          );
        }
        return;
      }
      const id = String((parsed.data as Record<string, unknown>)[idField[file]]);
      if (seen.has(id)) problems.push(`${label}: field "${idField[file]}": ${id} appears more than once`);
      seen.add(id);
      records.push(parsed.data as z.infer<(typeof fixtureFiles)[F]>);
    });
    return records;
  };

  const fixtures: Fixtures = {
    shifts: read("shifts.json"),
    employees: read("employees.json"),
    vanpools: read("vanpools.json"),
    cases: read("cases.json"),
    emailThreads: read("email_threads.json"),
  };
  if (problems.length > 0) throw new FixtureError(problems);
  return fixtures;
}

/** Cross-record checks: every reference must point at a record in the folder or the database. */
export function checkReferences(fixtures: Fixtures, existing: ExistingIds): void {
  const problems: string[] = [];
  const shifts = union(
    existing.shifts,
    fixtures.shifts.map((s) => s.id),
  );
  const employees = union(
    new Set(existing.employees.keys()),
    fixtures.employees.map((e) => e.employee_id),
  );
  const vanpools = union(
    existing.vanpools,
    fixtures.vanpools.map((v) => v.vanpool_id),
  );
  // Each case's vanpool and openness once the folder is in: its record there, else the stored one.
  const cases = new Map(existing.cases);
  for (const c of fixtures.cases) cases.set(c.case_id, { vanpoolId: c.vanpool_id, open: !isClosed(c.status) });

  // An email address belongs to one employee.
  const emailOwner = new Map<string, string>();
  const folderEmployees = new Set(fixtures.employees.map((e) => e.employee_id));
  for (const [id, email] of existing.employees) if (!folderEmployees.has(id)) emailOwner.set(email.toLowerCase(), id);
  fixtures.employees.forEach((e, i) => {
    const owner = emailOwner.get(e.email.toLowerCase());
    if (owner && owner !== e.employee_id)
      problems.push(
        `employees.json: record #${i + 1} (${e.employee_id}): field "email": ${e.email} is already the email of ${owner}`,
      );
    else emailOwner.set(e.email.toLowerCase(), e.employee_id);
  });

  fixtures.employees.forEach((e, i) => {
    if (e.shift_id !== null && !shifts.has(e.shift_id)) {
      problems.push(
        `employees.json: record #${i + 1} (${e.employee_id}): field "shift_id": unknown shift "${e.shift_id}" (not in shifts.json or the database)`,
      );
    }
  });
  const riderOf = new Map<string, string>();
  const participants = new Set<string>();
  const storedParticipant = new Map(existing.riders.map((r) => [r.participantId, r]));
  const storedVanpoolsOf = new Map<string, Set<string>>();
  for (const r of existing.riders.filter((row) => row.active))
    storedVanpoolsOf.set(r.employeeId, (storedVanpoolsOf.get(r.employeeId) ?? new Set()).add(r.vanpoolId));
  fixtures.vanpools.forEach((v, i) => {
    const label = `vanpools.json: record #${i + 1} (${v.vanpool_id})`;
    v.riders.forEach((r, j) => {
      if (!employees.has(r.employee_id))
        problems.push(
          `${label}: field "riders[${j}].employee_id": no employee "${r.employee_id}" in employees.json or the database`,
        );
      const other = riderOf.get(r.employee_id);
      if (other && v.status === "active")
        problems.push(`${label}: field "riders[${j}].employee_id": ${r.employee_id} already rides ${other}`);
      if (v.status === "active") riderOf.set(r.employee_id, v.vanpool_id);
      if (participants.has(r.participant_id))
        problems.push(`${label}: field "riders[${j}].participant_id": ${r.participant_id} is used twice`);
      participants.add(r.participant_id);
      // An import adds and updates; it never moves a rider or gives a participant id to someone else.
      const stored = storedParticipant.get(r.participant_id);
      if (stored && stored.employeeId !== r.employee_id)
        problems.push(
          `${label}: field "riders[${j}].participant_id": ${r.participant_id} already belongs to ${stored.employeeId} on ${stored.vanpoolId} in the database; a participant id is never reused`,
        );
      else if (stored && stored.vanpoolId !== v.vanpool_id)
        problems.push(
          `${label}: field "riders[${j}].participant_id": ${r.participant_id} (${r.employee_id}) rides ${stored.vanpoolId} in the database; an import does not move riders between vanpools`,
        );
      const storedVanpools = storedVanpoolsOf.get(r.employee_id);
      if (!stored && storedVanpools && !storedVanpools.has(v.vanpool_id))
        problems.push(
          `${label}: field "riders[${j}].employee_id": ${r.employee_id} rides ${[...storedVanpools].join(", ")} in the database; an import does not move riders between vanpools`,
        );
    });
    if (v.riders.length > v.capacity)
      problems.push(`${label}: field "riders": ${v.riders.length} riders exceed the capacity of ${v.capacity}`);
    if (v.coordinator_id && !v.riders.some((r) => r.employee_id === v.coordinator_id)) {
      problems.push(`${label}: field "coordinator_id": ${v.coordinator_id} does not ride this vanpool`);
    }
  });
  // A vanpool has at most one open case (the database enforces it too).
  const openCasesOf = new Map<string, string[]>();
  for (const [caseId, c] of cases)
    if (c.open) openCasesOf.set(c.vanpoolId, [...(openCasesOf.get(c.vanpoolId) ?? []), caseId]);
  fixtures.cases.forEach((c, i) => {
    const label = `cases.json: record #${i + 1} (${c.case_id})`;
    if (!vanpools.has(c.vanpool_id)) problems.push(`${label}: field "vanpool_id": no vanpool "${c.vanpool_id}"`);
    const others = (openCasesOf.get(c.vanpool_id) ?? []).filter((id) => id !== c.case_id);
    if (!isClosed(c.status) && others.length > 0)
      problems.push(
        `${label}: field "status": ${c.vanpool_id} already has an open case (${others.join(", ")}); a vanpool has at most one`,
      );
  });
  // One thread per case; a message stays on its thread.
  const threadOf = new Map([...existing.threads].map(([threadId, caseId]) => [caseId, threadId]));
  const messageThread = new Map(existing.messages);
  const inFolder = new Set<string>();
  fixtures.emailThreads.forEach((t, i) => {
    const label = `email_threads.json: record #${i + 1} (${t.thread_id})`;
    const theCase = cases.get(t.case_id);
    if (!theCase) problems.push(`${label}: field "case_id": no case "${t.case_id}"`);
    if (!vanpools.has(t.vanpool_id)) problems.push(`${label}: field "vanpool_id": no vanpool "${t.vanpool_id}"`);
    else if (theCase && theCase.vanpoolId !== t.vanpool_id)
      problems.push(`${label}: field "vanpool_id": ${t.case_id} is about ${theCase.vanpoolId}, not ${t.vanpool_id}`);
    const storedCase = existing.threads.get(t.thread_id);
    if (storedCase && storedCase !== t.case_id)
      problems.push(`${label}: field "case_id": the thread belongs to ${storedCase}; an import does not move threads`);
    const otherThread = threadOf.get(t.case_id);
    if (otherThread && otherThread !== t.thread_id)
      problems.push(`${label}: field "case_id": ${t.case_id} already has the thread ${otherThread}`);
    else threadOf.set(t.case_id, t.thread_id);
    t.messages.forEach((m, j) => {
      const thread = messageThread.get(m.message_id);
      if (inFolder.has(m.message_id) && thread === t.thread_id)
        problems.push(`${label}: field "messages[${j}].message_id": ${m.message_id} appears twice in this thread`);
      inFolder.add(m.message_id);
      if (thread && thread !== t.thread_id)
        problems.push(`${label}: field "messages[${j}].message_id": ${m.message_id} is already a message of ${thread}`);
      else messageThread.set(m.message_id, t.thread_id);
    });
  });
  if (problems.length > 0) throw new FixtureError(problems);
}

function recordLabel(file: FileName, index: number, raw: unknown): string {
  const id = raw && typeof raw === "object" ? (raw as Record<string, unknown>)[idField[file]] : undefined;
  return `${file}: record #${index + 1}${typeof id === "string" ? ` (${id})` : ""}`;
}

function formatPath(pathParts: PropertyKey[]): string {
  return pathParts.reduce<string>(
    (text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    "",
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.input === undefined) return "is missing";
  return issue.message;
}

function union(a: Set<string>, b: string[]): Set<string> {
  return new Set([...a, ...b]);
}
