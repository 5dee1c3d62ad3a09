"use client";
/**
 * One experiment. While it runs: progress (phases, bar, current step, elapsed), actions,
 * the live log. Once it succeeded it opens on the verdict (candidate vs baseline in
 * words), then the chart, what the model got wrong, the models tried, resources, what can
 * be done with the model, and last the progress and the folded log. A run that did not
 * succeed opens on what happened and what to do. Live: server events invalidate the
 * query; a slow poll covers a dropped event stream. After a reload or a server restart
 * the page reads the same state back from the server.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { Card } from "@/components/ui/card";
import { ExperimentActions } from "./experiment-actions";
import { ExperimentBadges } from "./badges";
import { ExportPanel } from "./export-panel";
import { controllerJobLifecycle, experimentLifecycle } from "@/contracts/lifecycles";
import { PredictFile } from "./predict-file";
import { RegisterVersion } from "./register-version";
import { ProgressPanel } from "./progress-panel";
import { OutcomeCard } from "./outcome-card";
import { Importance, Mistakes, ModelsTried, ResultChart, VerdictCard } from "./results-panel";
import { StepLogs } from "./step-logs";
import { TryPredictions } from "./try-predictions";
import { UsageTable } from "./usage-table";


export function ExperimentPage({ projectId, experimentId }: { projectId: string; experimentId: string }) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.experiments.get.queryOptions({ id: experimentId }),
    refetchInterval: (query) => (query.state.data && !experimentLifecycle.isTerminal(query.state.data.status) ? 5000 : false),
    retry: 3,
  });
  if (q.isPending) return <Loading label="Loading the experiment…" />;
  if (!q.data)
    return (
      <ErrorMessage>
        Could not load the experiment: {errorText(q.error)} <Link href={`/projects/${projectId}/ml/experiments`}>Back to experiments</Link>
      </ErrorMessage>
    );
  const exp = q.data;
  const features = exp.results?.featureSchema?.features ?? [];
  const succeeded = exp.status === "succeeded";
  const ended = experimentLifecycle.isTerminal(exp.status);
  // The budget helper may add a note on what the budget did (e.g. scores kept after the time ran out).
  const budgetNote = (exp as { budgetNote?: string | null }).budgetNote ?? null;
  // The running step; once stopped, the failed step, else the training log (what people look at most).
  const current =
    exp.steps.find((s) => s.state && !controllerJobLifecycle.isTerminal(s.state))?.step ??
    exp.steps.find((s) => s.failure)?.step ??
    (exp.steps.find((s) => s.step === "train" && s.jobId) ? "train" : null);
  return (
    <section aria-labelledby="experiment-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <Link href={`/projects/${projectId}/ml/experiments`} className="text-sm text-blue-800 underline">
          ← All experiments
        </Link>
        <h2 id="experiment-heading" className="break-words text-lg font-semibold">
          {exp.name}
        </h2>
        <p className="text-sm text-slate-700">
          Predicting <strong>{exp.target}</strong> ({exp.task}) · metric {exp.metric} · {exp.mode === "quick" ? "quick baseline" : `improve, ${exp.settings.maxTrials} trials`}
          {exp.settings.excludeColumns.length > 0 && <> · left out: {exp.settings.excludeColumns.join(", ")}</>} · split {exp.settings.split.strategy}
          {exp.heldOut && (
            <>
              {" "}
              · <span data-testid="held-out">{exp.heldOut.rows.toLocaleString("en")} {exp.heldOut.rows === 1 ? "row" : "rows"} kept out for the project&apos;s {exp.heldOut.holdouts === 1 ? "holdout" : `${exp.heldOut.holdouts} holdouts`}</span>
            </>
          )}
        </p>
      </div>
      {q.error && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Showing the last known state: the server did not answer ({errorText(q.error)}). It refreshes when the connection is back.
        </p>
      )}
      {succeeded ? (
        <>
          <VerdictCard exp={exp}>
            <ExperimentBadges exp={exp} />
            {budgetNote && <p className="text-sm text-slate-800">{budgetNote}</p>}
          </VerdictCard>
          <ResultChart exp={exp} />
          <Mistakes exp={exp} />
          <ModelsTried exp={exp} />
          <Importance exp={exp} />
          <Card title="Time and resources" id="usage-heading">
            <UsageTable steps={exp.steps} />
          </Card>
          {exp.exportSha256 && (
            <>
              <Card title="Try predictions" id="try-heading">
                <TryPredictions experimentId={exp.id} features={features} />
              </Card>
              <Card title="Predict a file" id="predict-file-heading">
                <PredictFile experimentId={exp.id} />
              </Card>
              <Card title="Export model" id="export-heading">
                <ExportPanel experimentId={exp.id} sha256={exp.exportSha256} bytes={exp.exportBytes} names={exp.results?.export} />
              </Card>
              <RegisterVersion projectId={projectId} experimentId={exp.id} />
            </>
          )}
          <ExperimentActions exp={exp} />
          <ProgressPanel exp={exp} />
          <StepLogs steps={exp.steps} defaultStep={current} ended />
        </>
      ) : ended ? (
        <>
          <OutcomeCard exp={exp} />
          {budgetNote && <p className="text-sm text-slate-800">{budgetNote}</p>}
          {/* Scores that stand although the run did not succeed (the budget ran out after scoring) come right after. */}
          <VerdictCard exp={exp} />
          <ExperimentActions exp={exp} />
          <ExperimentBadges exp={exp} />
          <ProgressPanel exp={exp} />
          <StepLogs steps={exp.steps} defaultStep={current} ended />
          <Card title="Time and resources" id="usage-heading">
            <UsageTable steps={exp.steps} />
          </Card>
        </>
      ) : (
        <>
          <OutcomeCard exp={exp} />
          <ExperimentBadges exp={exp} />
          <ProgressPanel exp={exp} />
          <ExperimentActions exp={exp} />
          {budgetNote && <p className="text-sm text-slate-800">{budgetNote}</p>}
          <StepLogs steps={exp.steps} defaultStep={current} ended={false} />
          <Card title="Time and resources" id="usage-heading">
            <UsageTable steps={exp.steps} />
          </Card>
        </>
      )}
    </section>
  );
}
