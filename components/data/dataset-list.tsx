"use client";
import Link from "next/link";
import type { DatasetView } from "@/server/datasets/datasets.schema";
import { Button } from "@/components/ui/button";
import { formatBytes } from "@/contracts/vocabulary";
import { formatCount } from "./format";

const STATUS: Record<string, string> = { profiling: "Profiling…", ready: "Ready", failed: "Could not be read" };

/** The project's datasets as cards (they stay readable at 390 px). */
export function DatasetList({
  projectId,
  datasets,
  selectedId,
  onSelect,
  onDelete,
}: {
  projectId: string;
  datasets: DatasetView[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onDelete: (id: string) => void;
}) {
  return (
    <ul className="flex flex-col gap-2" aria-label="Datasets">
      {datasets.map((d) => (
        <li key={d.id} data-testid="dataset-row" className={`rounded-lg border bg-white p-3 ${d.id === selectedId ? "border-blue-700" : "border-slate-200"}`}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="break-all text-base font-semibold">{d.name}</h3>
            <span className={`text-sm ${d.status === "failed" ? "text-red-800" : "text-slate-700"}`}>{STATUS[d.status] ?? d.status}</span>
          </div>
          <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-slate-600">Rows</dt>
              <dd>{formatCount(d.rowCount)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Columns</dt>
              <dd>{formatCount(d.columnCount)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Size</dt>
              <dd>{formatBytes(d.bytes)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Used by</dt>
              <dd>{d.usedBy.length === 0 ? "no experiment" : `${d.usedBy.length} experiment${d.usedBy.length === 1 ? "" : "s"}`}</dd>
            </div>
          </dl>
          {d.error && <p className="mt-2 text-sm text-red-800">{d.error.message}</p>}
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => onSelect(d.id)} aria-label={`Open ${d.name}`} aria-pressed={d.id === selectedId}>
              Open
            </Button>
            {d.status === "ready" && (
              <Link
                href={`/projects/${projectId}/ml/train?dataset=${encodeURIComponent(d.id)}`}
                className="inline-flex min-h-10 items-center rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800"
              >
                Use in a new experiment<span className="sr-only"> with {d.name}</span>
              </Link>
            )}
            <Button variant="secondary" onClick={() => onDelete(d.id)} aria-label={`Delete ${d.name}`}>
              Delete…
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
