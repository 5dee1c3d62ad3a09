"use client";
/**
 * A form typed by the model's feature schema; one row goes through a short predict job.
 * Numbers outside the range seen in training are accepted (the model still predicts)
 * with a warning next to the field; any change to the input clears the last result, so
 * a prediction on the screen always belongs to the values shown.
 */
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { FeatureSchemaEntry } from "@/contracts/recipes";
import { CategoryInput } from "@/components/data/category-input";

const initial = (f: FeatureSchemaEntry): string => (f.example === null || f.example === undefined ? "" : String(f.example));

/** Whether a typed number lies outside the training range of its feature. */
export function outsideTrainingRange(f: FeatureSchemaEntry, value: string): boolean {
  if (f.kind !== "numeric" || value.trim() === "") return false;
  const n = Number(value);
  if (!Number.isFinite(n)) return false;
  return (f.min != null && n < f.min) || (f.max != null && n > f.max);
}

function Field({ f, value, onChange }: { f: FeatureSchemaEntry; value: string; onChange: (v: string) => void }) {
  const id = `try-${f.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const outside = outsideTrainingRange(f, value);
  const cls = "min-h-10 w-full rounded-md border border-slate-400 bg-white px-2";
  let input;
  if (f.kind === "categorical" && f.categories?.length && f.categoriesTruncated) {
    input = <CategoryInput id={id} className={cls} value={value} categories={f.categories} onChange={onChange} />;
  } else if (f.kind === "categorical" && f.categories?.length) {
    input = (
      <select id={id} className={cls} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">(missing)</option>
        {f.categories.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  } else if (f.kind === "boolean") {
    input = (
      <select id={id} className={cls} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">(missing)</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (f.kind === "numeric") {
    // No min/max attributes: the browser would refuse to submit a value outside them.
    input = <input id={id} type="number" step="any" className={cls} value={value} aria-describedby={outside ? `${id}-range` : undefined} onChange={(e) => onChange(e.target.value)} />;
  } else if (f.kind === "datetime") {
    input = <input id={id} type="text" inputMode="numeric" placeholder="YYYY-MM-DD" className={cls} value={value} onChange={(e) => onChange(e.target.value)} />;
  } else {
    input = <input id={id} type="text" className={cls} value={value} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="break-all text-sm font-medium">
        {f.name}
        {f.kind === "numeric" && f.min != null && f.max != null && <span className="font-normal text-slate-600"> ({f.min}–{f.max} in training)</span>}
      </label>
      {input}
      {outside && (
        <p id={`${id}-range`} className="text-sm text-amber-900" data-testid="range-warning">
          Outside the range seen in training ({f.min}–{f.max}): the model still predicts, but it has never seen such a value, so trust the result less.
        </p>
      )}
    </div>
  );
}

export function TryPredictions({ experimentId, features }: { experimentId: string; features: FeatureSchemaEntry[] }) {
  const trpc = useTRPC();
  const used = features.filter((f) => f.usedByModel !== false);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(features.map((f) => [f.name, initial(f)])));
  const tryRow = useMutation(trpc.predictions.tryRow.mutationOptions());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const typed: Record<string, string | number | null> = {};
    for (const f of features) {
      const v = values[f.name] ?? "";
      typed[f.name] = v === "" ? null : f.kind === "numeric" && Number.isFinite(Number(v)) ? Number(v) : v;
    }
    tryRow.mutate({ experimentId, values: typed });
  };
  if (!features.length) return <p className="text-sm text-slate-700">This model has no feature schema, so there is no form to fill.</p>;
  const r = tryRow.data;
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Try a prediction">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {used.map((f) => (
          <Field
            key={f.name}
            f={f}
            value={values[f.name] ?? ""}
            onChange={(v) => {
              setValues((s) => ({ ...s, [f.name]: v }));
              tryRow.reset(); // the shown result belonged to the old values
            }}
          />
        ))}
      </div>
      <Button type="submit" className="self-start" disabled={tryRow.isPending}>
        {tryRow.isPending ? "Predicting… (loading the model)" : "Predict"}
      </Button>
      {tryRow.error && <ErrorMessage>{errorText(tryRow.error)}</ErrorMessage>}
      {r && (
        <div role="status" className="flex flex-col gap-1 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm" data-testid="try-result">
          <p>
            Prediction: <strong>{String(r.prediction)}</strong> <span className="text-slate-600">({r.seconds} s)</span>
          </p>
          {r.probabilities.length > 0 && (
            <ul aria-label="Class probabilities">
              {r.probabilities.map((p) => (
                <li key={p.label}>
                  {p.label}: {(p.probability * 100).toFixed(1)}%
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
