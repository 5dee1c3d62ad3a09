"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { refusalOf } from "./decision-words";
import type { Version } from "./registry-types";
import { Sheet } from "./sheet";

type Mode = "resident" | "on_demand";
/** Which control a refusal of deployments.create belongs next to (its details.code). */
type Control = "what" | "mode" | "computer" | "name" | "memory" | "idle" | "submit";
const CONTROL_OF: Record<string, Control> = {
  export_missing: "what",
  alias_unset: "what",
  resident_only: "mode",
  unknown_computer: "computer",
  wrong_computer: "computer",
  name_taken: "name",
  memory_too_large: "memory",
  memory_on_demand: "memory",
  idle_on_demand: "idle",
};
/** Which control a zod issue of the input belongs next to (its path's first key). */
const CONTROL_OF_FIELD: Record<string, Control> = { name: "name", memoryGb: "memory", idleUnloadMinutes: "idle" };

/** The control a refusal of deployments.create stands next to; the resident-only ones at Deploy when the mode is no longer resident. */
function controlOf(error: unknown, mode: Mode): Control {
  const e = error as { data?: { zodIssues?: { path?: (string | number)[] }[] | null } };
  const field = e.data?.zodIssues?.map((i) => CONTROL_OF_FIELD[String(i.path?.[0])]).find(Boolean);
  const at = CONTROL_OF[refusalOf(error)?.code ?? ""] ?? field ?? "submit";
  return mode !== "resident" && (at === "memory" || at === "idle") ? "submit" : at;
}

const MODE_WORDS: Record<Mode, string> = {
  resident: "Resident: a serving process keeps the model loaded (fast answers, holds memory)",
  on_demand: "On demand: each request runs a short job (slow answers, nothing held)",
};

function Refusal({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="text-red-800" data-testid="deploy-refusal">
      {children}
    </p>
  );
}

/**
 * Deploy one version: pinned to it, or following an alias of its model (promoting or
 * rolling back the alias then switches the deployment); resident or on demand; on which
 * computer. A refusal of the server stands next to the control it is about; a created
 * deployment opens its page, where it shows loading → ready.
 */
export function DeploySheet({ projectId, modelId, modelName, version, versions, onClose }: { projectId: string; modelId: string; modelName: string; version: Version; versions: Version[]; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const targets = useQuery(trpc.targets.list.queryOptions());
  const home = targets.data?.find((t) => t.id === version.targetId);
  const aliases = versions.flatMap((v) => v.aliases.map((a) => ({ alias: a, number: v.number })));
  const [what, setWhat] = useState<string>("pinned");
  // The CLI's default: a tabular version on demand (it runs on every computer), a
  // fine-tune resident (the only way it is served); a refusal says where that cannot run.
  const tabular = version.identity.recipe === "tabular";
  const [mode, setMode] = useState<Mode>(tabular ? "on_demand" : "resident");
  const [computer, setComputer] = useState<string | null>(null);
  const [name, setName] = useState("");
  // Empty: the kind's default budget (the server's DEFAULT_MEMORY_GB).
  const [memoryGb, setMemoryGb] = useState("");
  // Empty: it never unloads.
  const [idleMinutes, setIdleMinutes] = useState("");
  const defaultMemoryGb = version.identity.recipe === "tabular" ? 2 : 4;
  const chosenComputer = computer ?? home?.name ?? "";
  const create = useMutation(
    trpc.deployments.create.mutationOptions({
      onSuccess: (d) => {
        void queryClient.invalidateQueries({ queryKey: trpc.deployments.pathKey() });
        router.push(`/projects/${projectId}/ml/deployments/${d.id}`);
      },
    }),
  );
  const at: Control | null = create.error ? controlOf(create.error, mode) : null;
  const refusalAt = (c: Control) => at === c && <Refusal>{errorText(create.error)}</Refusal>;
  const defaultName = `${modelName}${what === "pinned" ? `-v${version.number}` : `-${what}`}`;
  const submit = () => {
    create.mutate({
      modelId,
      what: what === "pinned" ? { version: version.number } : { alias: what },
      mode,
      ...(chosenComputer ? { computer: chosenComputer } : {}),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(mode === "resident" && memoryGb.trim() ? { memoryGb: Number(memoryGb) } : {}),
      ...(mode === "resident" && idleMinutes.trim() ? { idleUnloadMinutes: Number(idleMinutes) } : {}),
    });
  };
  return (
    <Sheet title={`Deploy version ${version.number}?`} onClose={onClose}>
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <fieldset className="flex flex-col gap-1">
          <legend className="font-medium">What it serves</legend>
          <label className="flex items-start gap-2">
            <input type="radio" name="deploy-what" className="mt-1 h-4 w-4" checked={what === "pinned"} onChange={() => setWhat("pinned")} />
            <span>Version {version.number}, pinned (it changes only when you switch it)</span>
          </label>
          {aliases.map((a) => (
            <label key={a.alias} className="flex items-start gap-2">
              <input type="radio" name="deploy-what" className="mt-1 h-4 w-4" checked={what === a.alias} onChange={() => setWhat(a.alias)} />
              <span>
                Follow alias “{a.alias}” (now version {a.number}): promoting or rolling back the alias switches the deployment
              </span>
            </label>
          ))}
          {refusalAt("what")}
        </fieldset>
        {tabular ? (
          <fieldset className="flex flex-col gap-1">
            <legend className="font-medium">Mode</legend>
            {(["resident", "on_demand"] as const).map((m) => (
              <label key={m} className="flex items-start gap-2">
                <input type="radio" name="deploy-mode" className="mt-1 h-4 w-4" checked={mode === m} onChange={() => setMode(m)} />
                <span>{MODE_WORDS[m]}</span>
              </label>
            ))}
            {refusalAt("mode")}
          </fieldset>
        ) : (
          // A fine-tune is served resident only (the server refuses on demand): no choice to offer.
          <p data-testid="deploy-mode">
            <span className="font-medium">Mode:</span> {MODE_WORDS.resident}
          </p>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor="deploy-computer" className="font-medium">
            Computer
          </label>
          <select id="deploy-computer" className="min-h-10 rounded-md border border-slate-400 bg-white px-2" value={chosenComputer} onChange={(e) => setComputer(e.target.value)}>
            {(targets.data ?? []).map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
                {t.id === version.targetId ? " (where it was trained)" : ""}
              </option>
            ))}
          </select>
          {targets.error && <Refusal>Could not list the computers: {errorText(targets.error)}</Refusal>}
          {refusalAt("computer")}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="deploy-name" className="font-medium">
            Name (optional)
          </label>
          <input id="deploy-name" className="min-h-10 rounded-md border border-slate-400 px-2" value={name} placeholder={defaultName} maxLength={64} onChange={(e) => setName(e.target.value)} />
          {refusalAt("name")}
        </div>
        {mode === "resident" && (
          <details className="flex flex-col gap-1" open={at === "memory" || at === "idle"}>
            <summary className="cursor-pointer font-medium">Advanced</summary>
            <label htmlFor="deploy-memory" className="mt-2">
              Memory budget of the serving process (GB)
            </label>
            <input
              id="deploy-memory"
              type="number"
              inputMode="decimal"
              min={0.1}
              step={0.1}
              className="min-h-10 rounded-md border border-slate-400 px-2"
              value={memoryGb}
              placeholder={String(defaultMemoryGb)}
              aria-describedby="deploy-memory-help"
              onChange={(e) => setMemoryGb(e.target.value)}
            />
            <p id="deploy-memory-help" className="text-sm text-slate-700">
              Over it the serving process is stopped and the deployment says why. Empty: {defaultMemoryGb} GB. At most what the computer has.
            </p>
            {refusalAt("memory")}
            <label htmlFor="deploy-idle" className="mt-2">
              Unload after idle (minutes)
            </label>
            <input id="deploy-idle" type="number" inputMode="decimal" min={0.1} step={0.1} className="min-h-10 rounded-md border border-slate-400 px-2" value={idleMinutes} placeholder="never" aria-describedby="deploy-idle-help" onChange={(e) => setIdleMinutes(e.target.value)} />
            <p id="deploy-idle-help" className="text-sm text-slate-700">
              After this many minutes without a request the serving process unloads and gives its memory back; the next request loads it again and waits for the load. Empty: it stays loaded until stopped. At least 0.1 (6 seconds).
            </p>
            {refusalAt("idle")}
          </details>
        )}
        {refusalAt("submit")}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={create.isPending || !targets.data}>
            {create.isPending ? "Deploying…" : what === "pinned" ? `Deploy version ${version.number}` : `Deploy following “${what}”`}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Not now
          </Button>
        </div>
      </form>
    </Sheet>
  );
}
