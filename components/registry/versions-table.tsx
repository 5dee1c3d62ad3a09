import { Fragment } from "react";
import { formatBytes } from "@/contracts/vocabulary";
import { formatMetric } from "@/components/experiment/format";
import { Button } from "@/components/ui/button";
import type { Version } from "./registry-types";

const COLUMNS = ["Version", "Score", "Baseline", "Evidence", "Registered", "Status"] as const;

const STATUS_WORDS: Record<Version["status"], string> = { registering: "registering", registered: "ready", export_missing: "export missing", removed: "removed" };

/**
 * The decision table: every version with its score, baseline (a fine-tune's: its base
 * model), the evidence in words with the base model and export, its status, and
 * Deploy and Promote one tap away. The actions are a row of their own under each version,
 * from the table's left edge (sticky while the row scrolls sideways) and no wider than the
 * visible part of the table (a container query: they wrap on a phone), so they are on the
 * screen at 1280 px and on a phone alike, not in a last column that is cut off or scrolled
 * out of view. The table scrolls inside its card on a narrow screen; `relative` keeps
 * the absolutely placed screen-reader labels inside that scroll box (else they widen the
 * page and a phone lays it out wider than the screen).
 */
export function VersionsTable(props: { modelId: string; modelName: string; versions: Version[]; onPromote: (n: number) => void; onDeploy: (v: Version) => void; onRemove: (v: Version) => void }) {
  const { modelId, modelName, versions, onPromote, onDeploy, onRemove } = props;
  return (
    <div className="@container relative max-w-full overflow-x-auto rounded-md border border-slate-200" tabIndex={0} role="region" aria-label={`Versions of ${modelName}`}>
      <table className="min-w-full text-left text-sm">
        <thead className="bg-slate-100 text-xs">
          <tr>
            {COLUMNS.map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-2 py-1 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => {
            const selected = v.aliases.includes("selected");
            return (
              <Fragment key={v.id}>
                <tr className="border-t border-slate-100" data-testid="version-row" data-version={v.number} data-selected={selected}>
                  <th scope="row" className="whitespace-nowrap px-2 py-1 font-medium">
                    {v.number}
                    {v.aliases.map((a) => (
                      <span key={a} className={`ml-1 rounded px-1 text-xs ${a === "selected" ? "bg-green-100 text-green-900" : "bg-slate-100 text-slate-800"}`}>
                        {a === "selected" ? "in use" : a}
                      </span>
                    ))}
                  </th>
                  <td className="whitespace-nowrap px-2 py-1">
                    {v.metricLabel} {formatMetric(v.primaryValue)}
                  </td>
                  <td className="whitespace-nowrap px-2 py-1">
                    {formatMetric(v.baselineValue)}
                    {v.evidence.kind === "lora" && " (its base)"}
                  </td>
                  <td className="min-w-64 px-2 py-1" data-testid="version-evidence">
                    {v.evidenceWords}
                    {v.baseModel && <span className="block">Base model: {v.baseModel}</span>}
                    <span className="block text-slate-700">
                      Export: {v.exportFileName} ({formatBytes(v.exportBytes)})
                    </span>
                    {v.latency && (
                      <span className="block text-slate-700">
                        One-row prediction: {v.latency.medianMs} ms median, {v.latency.p95Ms} ms p95 (when tested)
                      </span>
                    )}
                    <span className="block text-slate-700" data-testid="version-exclusion">
                      {exclusionWords(v.exclusion)}
                    </span>
                  </td>
                  <td className="whitespace-nowrap px-2 py-1">{new Date(v.createdAt).toLocaleString()}</td>
                  <td className="whitespace-nowrap px-2 py-1" data-testid="version-status">
                    {STATUS_WORDS[v.status]}
                  </td>
                </tr>
                <tr data-testid="version-actions" data-version={v.number}>
                  <td colSpan={COLUMNS.length} className="px-2 pb-2">
                    <div className="sticky left-2 flex max-w-[calc(100cqw-1rem)] flex-wrap items-center gap-3">
                      {v.status === "registered" && (
                        <a href={`/api/models/${encodeURIComponent(modelId)}/versions/${v.number}/export`} download className="font-medium text-blue-800 underline">
                          Download<span className="sr-only"> version {v.number}</span>
                        </a>
                      )}
                      {v.status === "registered" && (
                        <Button variant="secondary" onClick={() => onDeploy(v)}>
                          Deploy<span className="sr-only"> version {v.number}</span>
                        </Button>
                      )}
                      {!selected && v.status !== "removed" && (
                        <Button variant="secondary" onClick={() => onPromote(v.number)} disabled={v.status !== "registered"}>
                          Promote<span className="sr-only"> version {v.number}</span>
                        </Button>
                      )}
                      {v.aliases.length === 0 && v.status !== "removed" && v.status !== "registering" && (
                        <Button variant="secondary" onClick={() => onRemove(v)}>
                          Remove<span className="sr-only"> version {v.number}</span>
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** What the version can show a holdout that it never learnt from. */
function exclusionWords(e: Version["exclusion"]): string {
  if (!e) return "No record of what it learnt from (trained before one was kept): it cannot claim a holdout score.";
  const what = e.kind === "rows" ? `${e.entries.toLocaleString()} rows it was trained, tuned and tested on` : `${e.entries.toLocaleString()} prompts it was trained and evaluated on`;
  return `Holdout evidence: the hashes of the ${what}.`;
}
