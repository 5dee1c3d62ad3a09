"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";

const SELECT = "min-h-10 max-w-full rounded-md border border-slate-400 bg-white px-2";

/** The default holdout of a time-ordered task: a dataset's newest rows by a date column (holdouts.reserveNewest). */
export function ReserveNewest({ projectId, onReserved }: { projectId: string; onReserved: (words: string) => void }) {
  const trpc = useTRPC();
  const datasets = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const dated = (datasets.data ?? []).filter((d) => d.kind === "table" && d.status === "ready" && d.columns.some((c) => c.type === "datetime"));
  const [datasetId, setDatasetId] = useState("");
  const [column, setColumn] = useState("");
  const [percent, setPercent] = useState("10");
  const reserve = useMutation(trpc.holdouts.reserveNewest.mutationOptions());
  if (dated.length === 0) return null;
  const dataset = dated.find((d) => d.id === datasetId) ?? dated[0]!;
  const dates = dataset.columns.filter((c) => c.type === "datetime");
  const timeColumn = dates.some((c) => c.name === column) ? column : dates[0]!.name;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    reserve.mutate(
      { projectId, datasetId: dataset.id, timeColumn, percent: Number(percent) },
      { onSuccess: (h) => onReserved(h.reused ? `“${h.name}” was already reserved with these rows.` : `Reserved “${h.name}”: ${h.rows} rows kept out of every training started from now on.`) },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-labelledby="reserve-newest-heading">
      <h4 id="reserve-newest-heading" className="text-sm font-semibold">
        Reserve the newest rows of a dataset
      </h4>
      <p className="text-sm text-slate-700">For data ordered in time: later trainings with a time split learn only from rows before these.</p>
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          <span className="font-medium">Dataset</span>
          <select value={dataset.id} onChange={(e) => setDatasetId(e.target.value)} className={SELECT}>
            {dated.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Date column</span>
          <select value={timeColumn} onChange={(e) => setColumn(e.target.value)} className={SELECT}>
            {dates.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Newest share (%)</span>
          <input type="number" min={1} max={50} step={1} required value={percent} onChange={(e) => setPercent(e.target.value)} className="min-h-10 w-24 rounded-md border border-slate-400 bg-white px-2" />
        </label>
        <Button type="submit" variant="secondary" disabled={reserve.isPending}>
          {reserve.isPending ? "Reserving…" : "Reserve the newest rows"}
        </Button>
      </div>
      {reserve.error && <ErrorMessage>Not reserved: {errorText(reserve.error)}</ErrorMessage>}
    </form>
  );
}
