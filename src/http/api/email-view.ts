// An email thread as the API shows it: its messages with who wrote and who was written to named by
// employee id, addresses only for the pii scope.
import type { z } from "@hono/zod-openapi";
import { employeeIdsByEmail } from "../../data/api-read-repository.js";
import type { ThreadRecord } from "../../data/email-repository.js";
import { addressOf } from "../../integrations/email/reply-address.js";
import type { ApiDeps } from "./context.js";
import { presentMessage } from "./present.js";
import type { ThreadSchema } from "./schemas.js";

export async function presentThreads(
  deps: ApiDeps,
  threads: ThreadRecord[],
  pii: boolean,
): Promise<z.infer<typeof ThreadSchema>[]> {
  const addresses = new Set(threads.flatMap((t) => t.messages.flatMap((m) => [m.from, ...m.to].map(addressOf))));
  const employees = await employeeIdsByEmail(deps.agent.pool, [...addresses]);
  return threads.map((t) => ({
    thread_id: t.thread_id,
    case_id: t.case_id,
    vanpool_id: t.vanpool_id,
    subject: t.subject,
    messages: t.messages.map((m) => presentMessage(m, employees, pii)),
  }));
}
