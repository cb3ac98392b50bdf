// LangGraph checkpoints in the same PostgreSQL, in their own schema so Prisma's
// migrations never see (or try to drop) them. A pending approval is a checkpoint:
// it survives restarts and resumes in any process.
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { oneSetupAtATime } from "../data/migrations.js";

export async function createCheckpointer(pool: pg.Pool): Promise<PostgresSaver> {
  const saver = new PostgresSaver(pool, undefined, { schema: "langgraph" });
  await oneSetupAtATime(pool, "poolpatrol:checkpoint-setup", () => saver.setup());
  return saver;
}
