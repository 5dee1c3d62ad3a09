"use client";
import type { TWizardDraftData } from "@/server/drafts/drafts.schema";
import { Loading } from "@/components/ui/status-message";
import { actionLabel, isActionable, issueKey, issueWords } from "@/contracts/vocabulary";
import { useChecks } from "./use-checks";

type Props = { draft: TWizardDraftData; update: (p: Partial<TWizardDraftData>) => void };

const SEVERITY: Record<string, string> = { high: "bg-red-100 text-red-900", warning: "bg-amber-100 text-amber-900", info: "bg-slate-100 text-slate-800" };

/** Step 4: the data issues, each recommended action already selected; the user may switch any off. */
export function StepIssues({ draft, update }: Props) {
  const checks = useChecks(draft.datasetId, draft.target);
  if (!draft.target) return <p className="text-sm text-slate-700">Choose the column to predict first (step 3).</p>;
  if (!checks.result) return <Loading label="Waiting for the data checks…" />;
  const issues = checks.result.issues;
  if (!issues.length) return <p className="text-sm text-slate-800">No data issues were found for {draft.target}. Training uses every column and a random split.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Data issues">
      {issues.map((issue) => {
        const key = issueKey(issue);
        const on = draft.decided[key] ?? true;
        const id = `issue-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
        return (
          <li key={key} className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3" data-testid="data-issue">
            <div className="flex flex-wrap items-center gap-2">
              <span className={`rounded px-2 py-0.5 text-xs font-medium ${SEVERITY[issue.severity] ?? SEVERITY.info}`}>{issue.severity}</span>
              <span className="font-medium">{issueWords(issue.code)}</span>
              <span className="font-mono text-xs text-slate-600">{issue.code}</span>
              {issue.columns?.length ? <span className="break-all text-sm text-slate-700">({issue.columns.join(", ")})</span> : null}
            </div>
            {issue.message && <p className="text-sm text-slate-800">{issue.message}</p>}
            {isActionable(issue) ? (
              <label htmlFor={id} className="flex min-h-10 items-center gap-2 text-sm">
                <input id={id} type="checkbox" className="h-5 w-5" checked={on} onChange={(e) => update({ decided: { ...draft.decided, [key]: e.target.checked } })} />
                <span>
                  Recommended: {actionLabel(issue, draft.target!)}
                </span>
              </label>
            ) : (
              <p className="text-sm text-slate-700">{actionLabel(issue, draft.target!)}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
