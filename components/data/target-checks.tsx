"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ColumnHeaders } from "@/components/ui/column-headers";
import { errorText } from "@/components/ui/error-text";
import { issueWords } from "@/contracts/vocabulary";
import { SelectField, sameLabel } from "@/components/ui/select-field";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { ReadinessNotes } from "./readiness-notes";
import { SetupProgressView } from "./setup-progress";
import { useTargetReadiness } from "./use-target-readiness";

const ACTION: Record<string, string> = {
  drop_rows: "Drop those rows",
  exclude_columns: "Leave the column(s) out",
  time_split: "Split by time",
  group_split: "Split by group",
};

/** Pick the column to predict: the suggested task and metric with why, and the data issues. */
export function TargetChecks({ datasetId, columns }: { datasetId: string; columns: string[] }) {
  const trpc = useTRPC();
  const [target, setTarget] = useState("");
  const [asked, setAsked] = useState<string | null>(null);
  const start = useMutation(trpc.datasets.startChecks.mutationOptions({ onSuccess: (v) => setAsked(v.target) }));
  const checks = useQuery({
    ...trpc.datasets.checks.queryOptions({ id: datasetId, target: asked ?? "" }),
    enabled: asked !== null,
    refetchInterval: (q) => (q.state.data?.status === "running" ? 1500 : false),
  });
  const c = checks.data;
  const result = c?.status === "ready" ? c.result : null;
  // Whether the suggested setup can train at all: the rules experiments.start applies.
  const readiness = useTargetReadiness(datasetId, result ? (c?.target ?? null) : null, result ? result.task : null);
  return (
    <section aria-labelledby="target-heading" className="flex flex-col gap-3">
      <h3 id="target-heading" className="text-base font-semibold">
        What should the model predict?
      </h3>
      <div className="flex flex-wrap items-end gap-2">
        <SelectField
          id="target-column"
          label="Column to predict"
          className="text-sm"
          value={target}
          onChange={setTarget}
          placeholder="Choose a column…"
          options={sameLabel(columns)}
        />
        <Button disabled={!target || start.isPending} onClick={() => start.mutate({ id: datasetId, target })}>
          Check this target
        </Button>
      </div>
      {start.error && <ErrorMessage>{errorText(start.error)}</ErrorMessage>}
      {c?.setup && <SetupProgressView setup={c.setup} />}
      {c?.status === "running" && !c.setup && <Loading label={`Checking the data for ${c.target}…`} />}
      {c?.status === "failed" && <ErrorMessage>{c.error?.message ?? "The checks failed."}</ErrorMessage>}
      {result && (
        <div className="flex flex-col gap-2" data-testid="checks-result">
          <p className="text-sm">
            <strong>Suggested: {result.task.replace("_", " ")}</strong>, measured by <strong>{result.metric.replace(/_/g, " ")}</strong>. {result.taskReason}. {result.metricReason}.
          </p>
          <ReadinessNotes refusals={readiness.refusals} warnings={readiness.warnings} error={readiness.error} />
          {result.issues.length === 0 ? (
            <p className="text-sm text-slate-700">No data issues found for this target.</p>
          ) : (
            <div className="overflow-x-auto rounded-md border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Data issues">
              <table className="min-w-full text-left text-sm">
                <caption className="px-2 py-1 text-left text-sm text-slate-700">Data issues for {c?.target}</caption>
                <ColumnHeaders names={["Issue", "Columns", "Severity", "Recommended"]} />
                <tbody>
                  {result.issues.map((i, n) => (
                    <tr key={n} className="border-t border-slate-100 align-top">
                      <td className="px-2 py-1">
                        <span className="font-medium">{issueWords(i.code)}</span> <span className="font-mono text-xs text-slate-600">({i.code})</span>
                        <br />
                        {i.message}
                      </td>
                      <td className="px-2 py-1">{i.columns.join(", ") || "—"}</td>
                      <td className="px-2 py-1">{i.severity}</td>
                      <td className="px-2 py-1">{i.recommendedAction ? (ACTION[i.recommendedAction.kind] ?? i.recommendedAction.kind) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
