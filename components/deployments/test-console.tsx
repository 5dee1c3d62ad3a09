"use client";
/**
 * The test console of a tabular deployment: a form typed by the version's feature schema
 * that calls the deployment's real predict route (the same one a client calls), with the
 * key created on this page when there is one, else the page's own console key
 * (use-console-key.ts), so it works with no owner password and no key made by hand. The answer is
 * read through zod; a refusal's field problems (`rows[0].<feature>`) stand next to their
 * field. Any change to the input clears the last answer, so what is shown belongs to the
 * values shown.
 */
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ZDeploymentPredictResponse, ZDeploymentRefusal } from "@/contracts/deployments/serving";
import type { FeatureSchemaEntry } from "@/contracts/recipes";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import type { Cell, Row } from "./route-examples";
import { CategoryInput } from "@/components/data/category-input";
import { useConsoleKey, type ConsoleRequest } from "./use-console-key";

class Refused extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: Record<string, string>,
  ) {
    super(message);
  }
}

async function callPredict(path: string, send: (request: ConsoleRequest) => Promise<Response>, row: Row) {
  const res = await send((key) =>
    fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ rows: [row] }),
    }),
  );
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) return ZDeploymentPredictResponse.parse(body);
  const refusal = ZDeploymentRefusal.safeParse(body);
  if (!refusal.success) throw new Refused(`The route answered ${res.status} without a readable reason.`, "unreadable", {});
  const fields = Object.fromEntries((refusal.data.details?.fields ?? []).map((f) => [f.path.replace(/^rows\[0\]\./, ""), f.message]));
  throw new Refused(refusal.data.error, refusal.data.code, fields);
}

const fieldId = (name: string) => `console-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;

function typed(f: FeatureSchemaEntry, v: string): Cell {
  if (v === "") return null;
  if (f.kind === "numeric") return Number.isFinite(Number(v)) ? Number(v) : v;
  if (f.kind === "boolean" && (v === "true" || v === "false")) return v === "true";
  return v;
}

function ConsoleField({ f, value, problem, onChange }: { f: FeatureSchemaEntry; value: string; problem: string | undefined; onChange: (v: string) => void }) {
  const id = fieldId(f.name);
  const cls = `min-h-10 w-full rounded-md border bg-white px-2 ${problem ? "border-red-700" : "border-slate-400"}`;
  const common = { id, className: cls, value, "aria-invalid": problem ? true : undefined, "aria-describedby": problem ? `${id}-problem` : undefined };
  const choices = f.kind === "boolean" ? ["true", "false"] : f.kind === "categorical" ? (f.categories ?? []) : [];
  const input = f.kind === "categorical" && f.categoriesTruncated && choices.length ? (
    <CategoryInput {...common} categories={choices} onChange={onChange} />
  ) : choices.length ? (
    <select {...common} onChange={(e) => onChange(e.target.value)}>
      <option value="">{f.nullable ? "(missing)" : "Choose…"}</option>
      {choices.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  ) : (
    <input {...common} type={f.kind === "numeric" ? "number" : "text"} step={f.kind === "numeric" ? "any" : undefined} onChange={(e) => onChange(e.target.value)} />
  );
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="break-all text-sm font-medium">
        {f.name}
        <span className="font-normal text-slate-600">
          {" "}
          ({f.kind}
          {f.nullable ? ", may be left empty" : ""})
        </span>
      </label>
      {input}
      {problem && (
        <p id={`${id}-problem`} className="text-sm text-red-800" data-testid="console-field-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

export function TestConsole({ deploymentId, predictPath, features, example, apiKey }: { deploymentId: string; predictPath: string; features: FeatureSchemaEntry[]; example: Row; apiKey: string | null }) {
  const { send } = useConsoleKey(deploymentId, apiKey);
  const used = features.filter((f) => f.usedByModel);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(used.map((f) => [f.name, example[f.name] === null || example[f.name] === undefined ? "" : String(example[f.name])])));
  const predict = useMutation({ mutationFn: (row: Row) => callPredict(predictPath, send, row) });
  const refusal = predict.error instanceof Refused ? predict.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    predict.mutate(Object.fromEntries(used.map((f) => [f.name, typed(f, values[f.name] ?? "")])));
  };
  const answer = predict.data?.predictions[0];
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Test console">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {used.map((f) => (
          <ConsoleField
            key={f.name}
            f={f}
            value={values[f.name] ?? ""}
            problem={refusal?.fields[f.name]}
            onChange={(v) => {
              setValues((s) => ({ ...s, [f.name]: v }));
              predict.reset();
            }}
          />
        ))}
      </div>
      <Button type="submit" className="self-start" disabled={predict.isPending}>
        {predict.isPending ? "Predicting…" : "Send to the deployment"}
      </Button>
      {predict.error && (
        <ErrorMessage>{predict.error.message}</ErrorMessage>
      )}
      {answer && predict.data && (
        <div role="status" className="flex flex-col gap-1 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm" data-testid="console-result">
          <p>
            Prediction: <strong>{String(answer.prediction)}</strong>{" "}
            <span className="text-slate-600">
              (release {predict.data.release.number}, version {predict.data.release.version})
            </span>
          </p>
          {answer.probabilities && (
            <ul aria-label="Class probabilities">
              {Object.entries(answer.probabilities)
                .sort((a, b) => b[1] - a[1])
                .map(([label, p]) => (
                  <li key={label}>
                    {label}: {(p * 100).toFixed(1)}%
                  </li>
                ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
