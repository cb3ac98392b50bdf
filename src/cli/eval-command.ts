// `eval`: score the engine on a dataset.
import { runEvalCommand } from "../../evals/runner.js";
import { loadSettings } from "../app/context.js";
import { out } from "./command-kit.js";

export async function evalCommand(options: { dataset: string; json?: boolean; langsmith?: boolean }): Promise<void> {
  await runEvalCommand(options, { settings: loadSettings(), out });
}
