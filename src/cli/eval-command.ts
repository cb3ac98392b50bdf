// `eval`: score the engine on a dataset.
import { runEvalCommand } from "../../evals/runner.js";
import { loadSettings } from "../app/context.js";
import { out, UsageError } from "./command-kit.js";

export async function evalCommand(options: { dataset?: string; json?: boolean; langsmith?: boolean }): Promise<void> {
  const { dataset } = options;
  if (!dataset) throw new UsageError("Give --dataset FILE, e.g. --dataset evals/datasets/shift.jsonl.");
  await runEvalCommand({ ...options, dataset }, { settings: loadSettings(), out });
}
