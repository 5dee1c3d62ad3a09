"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { SelectField } from "@/components/ui/select-field";
import { UploadFile } from "@/components/wizard/upload-file";
import { ExamplesPreview } from "./examples-preview";
import { Field, numberFrom } from "@/components/ui/field";

const JSONL = ".jsonl,.json,application/jsonl,application/x-ndjson";

type Props = {
  projectId: string;
  datasetId: string | null;
  evalDatasetId: string | null;
  evalFraction: number;
  onChange: (patch: { datasetId?: string | null; evalDatasetId?: string | null; evalFraction?: number }) => void;
  errors: Record<string, string>;
};

/**
 * Step 3: the training examples (a JSONL file uploaded or one of the project's), their
 * preview as conversations, and what is held out for evaluation: a file of its own, else
 * a seeded fraction of the examples.
 */
export function StepExamples({ projectId, datasetId, evalDatasetId, evalFraction, onChange, errors }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const datasets = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const refreshList = () => void queryClient.invalidateQueries({ queryKey: trpc.datasets.list.queryKey() });
  // Only files of examples: a table cannot be fine-tuned on.
  const options = (datasets.data ?? []).filter((d) => d.kind === "examples").map((d) => [d.id, `${d.name} (${d.rowCount !== null ? `${d.rowCount} examples` : d.status})`] as const);
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <p className="text-sm text-slate-700">
        One example per line, as <code>{`{"prompt", "completion"}`}</code>, chat <code>{`{"messages": [...]}`}</code> or alpaca <code>{`{"instruction", "input", "output"}`}</code>. Only the answer
        (completion or assistant) tokens are trained on.
      </p>
      <UploadFile
        id="ft-upload"
        label="Upload training examples (JSONL)"
        accept={JSONL}
        projectId={projectId}
        onUploaded={(id) => {
          refreshList();
          onChange({ datasetId: id });
        }}
      />
      <QueryState query={datasets} loading="Loading datasets…" failure="Could not list datasets" />
      {datasets.data && (
        <SelectField
          id="ft-dataset"
          className="w-full max-w-full"
          label="Or use examples of this project"
          value={datasetId ?? ""}
          onChange={(id) => onChange({ datasetId: id || null })}
          placeholder={options.length ? "Choose a file of examples…" : "No files of examples yet"}
          options={options}
        />
      )}
      {errors.datasetId && (
        <p role="alert" className="text-sm text-red-800">
          {errors.datasetId}
        </p>
      )}
      {datasetId && <ExamplesPreview datasetId={datasetId} label="Training examples" />}

      <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-medium text-slate-800">Held out for evaluation</legend>
        <UploadFile
          id="ft-eval-upload"
          label="Upload an evaluation file (JSONL, optional)"
          accept={JSONL}
          projectId={projectId}
          onUploaded={(id) => {
            refreshList();
            onChange({ evalDatasetId: id });
          }}
        />
        {datasets.data && (
          <SelectField
            id="ft-eval-dataset"
            className="w-full max-w-full"
            label="Or evaluate on examples of this project"
            value={evalDatasetId ?? ""}
            onChange={(id) => onChange({ evalDatasetId: id || null })}
            placeholder="None: hold out a fraction of the training examples"
            options={options.filter(([id]) => id !== datasetId)}
          />
        )}
        {errors.evalDatasetId && (
          <p role="alert" className="text-sm text-red-800">
            {errors.evalDatasetId}
          </p>
        )}
        {evalDatasetId ? (
          <ExamplesPreview datasetId={evalDatasetId} label="Evaluation examples" />
        ) : (
          <Field
            id="ft-eval-fraction"
            label="Fraction held out for evaluation"
            type="number"
            min={0.01}
            max={0.5}
            step={0.01}
            value={evalFraction}
            onChange={(e) => onChange({ evalFraction: numberFrom(e.target.value, evalFraction) })}
            hint="A seeded split by prompt, after exact duplicates are removed: the same prompt never lands on both sides."
            error={errors["settings.evalFraction"]}
          />
        )}
      </fieldset>
    </div>
  );
}
