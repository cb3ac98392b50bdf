// `poolpatrol eval --dataset FILE [--json] [--langsmith]`: runs a dataset through
// the same engine the product uses and reports metrics. Exits 0 whenever it ran,
// whatever the score; 2 when the dataset or arguments are unusable.
import path from "node:path";
import type { Settings } from "../src/config/settings.js";
import { invalidInput } from "../src/errors.js";
import { type Example, readDataset } from "./dataset.js";
import { caseKind } from "./kinds/case-kind.js";
import type { EvalContext, EvalKind, ExampleResult } from "./kinds/kind.js";
import { questionKind } from "./kinds/question-kind.js";
import { replyKind } from "./kinds/reply-kind.js";
import { locationKind, shiftKind } from "./kinds/verdict-kinds.js";
import { recordLangSmithExperiment } from "./langsmith.js";
import { openScenarioStore, type ScenarioStore } from "./scenario-store.js";

// biome-ignore lint/suspicious/noExplicitAny: the registry holds kinds of every shape
type AnyKind = EvalKind<any, any, any>;
export const EVAL_KINDS: Record<string, AnyKind> = {
  shift: shiftKind,
  location: locationKind,
  reply: replyKind,
  case: caseKind,
  question: questionKind,
};

export interface EvalReport {
  dataset: string;
  kind: string;
  metrics: Record<string, unknown>;
  results: ExampleResult<unknown, unknown>[];
}

export function kindOf(examples: Example[], file: string): { name: string; kind: AnyKind } {
  const names = [...new Set(examples.map((e) => e.kind))];
  if (names.length !== 1) throw invalidInput(`${file} mixes kinds (${names.join(", ")}); use one kind per dataset.`);
  const kind = EVAL_KINDS[names[0]!];
  if (!kind)
    throw invalidInput(`${file}: unknown kind "${names[0]}"; known kinds: ${Object.keys(EVAL_KINDS).join(", ")}.`);
  return { name: names[0]!, kind };
}

/** The context a run gets; the scenario database is opened only if a kind asks for it. */
export function evalContext(settings: Settings, databaseUrl?: string): EvalContext & { close(): Promise<void> } {
  let store: Promise<ScenarioStore> | undefined;
  return {
    settings,
    scenarioStore: () => (store ??= openScenarioStore(settings, databaseUrl)),
    async close() {
      if (store) await (await store).close();
    },
  };
}

export async function runDataset(file: string, context: EvalContext): Promise<EvalReport> {
  const examples = readDataset(file);
  const { name, kind } = kindOf(examples, file);
  const results: ExampleResult<unknown, unknown>[] = [];
  for (const [index, example] of examples.entries()) {
    const inputs = kind.inputs.safeParse(example.inputs);
    const expected = kind.expected.safeParse(example.expected);
    const problem = !inputs.success
      ? ["inputs", inputs.error]
      : !expected.success
        ? ["expected", expected.error]
        : undefined;
    if (problem) {
      const issue = (problem[1] as { issues: { path: PropertyKey[]; message: string }[] }).issues[0]!;
      throw invalidInput(
        `${file}: example #${index + 1} (${example.id}): field "${[problem[0], ...issue.path.map(String)].join(".")}": ${issue.message}`,
      );
    }
    const actual = await kind.run(inputs.data, { ...context, datasetFile: file });
    results.push({ id: example.id, pass: kind.passed(expected.data, actual), expected: expected.data, actual });
  }
  return { dataset: path.basename(file), kind: name, metrics: kind.metrics(results), results };
}

export async function runEvalCommand(
  values: { dataset: string; json?: boolean; langsmith?: boolean },
  io: { settings: Settings; out: (text: string) => void },
): Promise<void> {
  if (values.langsmith && !io.settings.langsmith)
    throw invalidInput("--langsmith needs LANGSMITH_API_KEY; without it evaluations stay on this machine.");

  const file = path.resolve(values.dataset);
  const context = evalContext(io.settings);
  let report: EvalReport;
  let experiment: Awaited<ReturnType<typeof recordLangSmithExperiment>> | undefined;
  try {
    report = await runDataset(file, context);
    experiment = values.langsmith
      ? await recordLangSmithExperiment(
          {
            datasetFile: report.dataset,
            kindName: report.kind,
            kind: EVAL_KINDS[report.kind]!,
            examples: readDataset(file),
          },
          { ...context, datasetFile: file },
        )
      : undefined;
  } finally {
    await context.close();
  }
  if (values.json) {
    io.out(
      `${JSON.stringify({ dataset: report.dataset, metrics: report.metrics, results: report.results, ...(experiment ? { langsmith: experiment } : {}) }, null, 2)}\n`,
    );
    return;
  }
  const failing = report.results.filter((r) => !r.pass);
  const lines = [`${report.dataset} (${report.kind})`, ...EVAL_KINDS[report.kind]!.describeMetrics(report.metrics)];
  if (failing.length > 0) {
    lines.push("", `Failing examples (${failing.length}):`);
    for (const r of failing)
      lines.push(
        "answer" in (r.actual as object)
          ? `  ${r.id}: expected ${JSON.stringify(r.expected)}\n    actual: ${JSON.stringify(r.actual)}`
          : `  ${r.id}: expected ${compact(r.expected)}, got ${compact(r.actual)}`,
      );
  }
  if (experiment) lines.push("", `LangSmith experiment: ${experiment.experimentName}`);
  io.out(`${lines.join("\n")}\n`);
}

function compact(value: unknown): string {
  const { verdict, flagged, bucket, status, outcome, emails_sent, approvals, tools } = value as Record<string, unknown>;
  if (verdict !== undefined) return JSON.stringify({ verdict, flagged });
  if (bucket !== undefined) return JSON.stringify({ bucket });
  return JSON.stringify({ status, outcome, emails_sent, approvals, ...(tools ? { tools } : {}) });
}
