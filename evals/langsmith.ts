// Optional: mirror a dataset to LangSmith and run it there as an experiment with
// the same engine and pass rule as the local run. Only called with
// LANGSMITH_API_KEY set; nothing leaves the machine otherwise.
import { Client } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import type { Example } from "./dataset.js";
import type { EvalContext, EvalKind } from "./kinds/kind.js";

export async function recordLangSmithExperiment(
  // biome-ignore lint/suspicious/noExplicitAny: any dataset kind is accepted here
  input: { datasetFile: string; kindName: string; kind: EvalKind<any, any, any>; examples: Example[] },
  context: EvalContext,
): Promise<{ datasetName: string; experimentName: string }> {
  const config = context.settings.langsmith!;
  const client = new Client({ apiKey: config.apiKey, ...(config.endpoint ? { apiUrl: config.endpoint } : {}) });
  const datasetName = `pool-patrol/${input.datasetFile}`;
  if (!(await client.hasDataset({ datasetName }))) {
    const dataset = await client.createDataset(datasetName, {
      description: `Pool Patrol ${input.kindName} evaluation set`,
    });
    await client.createExamples(
      input.examples.map((e) => ({
        dataset_id: dataset.id,
        inputs: e.inputs,
        outputs: e.expected,
        metadata: { example_id: e.id, ...e.metadata },
      })),
    );
  }
  const { kind } = input;
  const results = await evaluate(
    async (inputs: Record<string, unknown>) =>
      (await kind.run(kind.inputs.parse(inputs), context)) as Record<string, unknown>,
    {
      client,
      data: datasetName,
      experimentPrefix: `pool-patrol-${input.kindName}`,
      metadata: { kind: input.kindName, project: config.project },
      evaluators: [
        ({
          outputs,
          referenceOutputs,
        }: {
          outputs?: Record<string, unknown>;
          referenceOutputs?: Record<string, unknown>;
        }) => ({
          key: "correct",
          score: kind.passed(kind.expected.parse(referenceOutputs), outputs) ? 1 : 0,
        }),
      ],
    },
  );
  return { datasetName, experimentName: results.experimentName };
}
