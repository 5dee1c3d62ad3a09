/** What `trainyard models …` prints: one line per model/version/event, and the --json shapes. */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { formatBytes } from "@/contracts/vocabulary";

type Out = inferRouterOutputs<AppRouter>["models"];
export type ModelOut = Out["list"][number];
export type VersionOut = Out["show"]["versions"][number];
export type EventOut = Out["history"][number];
type RetentionOut = Out["retentionPreview"];

const score = (v: { metricLabel: string; primaryValue: number }) => `${v.metricLabel} ${v.primaryValue.toPrecision(4)}`;

export function modelLine(m: ModelOut): string {
  const sel = m.selected ? `selected v${m.selected.number} (${score(m.selected)}, since ${new Date(m.selected.selectedAt).toISOString()})` : "nothing selected";
  return `${m.id}  ${m.name}  ${m.versionCount} version(s)  ${sel}  revision ${m.revision}`;
}

export function versionLine(v: VersionOut): string {
  const aliases = v.aliases.length ? `  [${v.aliases.join(", ")}]` : "";
  const base = v.baseModel ? `  base ${v.baseModel}` : "";
  return `v${v.number}  ${score(v)}  ${v.status}  experiment ${v.experimentId}  export ${v.exportSha256.slice(0, 12)}…${aliases}\n    ${v.evidenceWords}${base}`;
}

export function eventLine(e: EventOut): string {
  const from = e.from ? `v${e.from.number}` : "none";
  const ack = e.acknowledgedRegression ? " (acknowledged)" : "";
  return `${new Date(e.at).toISOString()}  ${e.kind} ${e.alias}: ${from} → v${e.to.number}  by ${e.actor.kind} ${e.actor.name}${ack}  — ${e.reason}`;
}

/** `--json` of a change: the model (selected, aliases, revision) and the event written. */
export function moveJson(r: { model: ModelOut; event: EventOut | null; decision: unknown }) {
  return { ...r.model, event: r.event, decision: r.decision };
}

/** The retention preview: what the project holds against its budget, and what could go. */
export function retentionLines(p: RetentionOut): string[] {
  const plan = new Set(p.toFitBudget.versionIds);
  return [
    `Registered exports: ${formatBytes(p.registeredBytes)} of ${formatBytes(p.budgetBytes)}.`,
    ...(p.toFitBudget.versionIds.length
      ? [`Over the budget: removing the ${p.toFitBudget.versionIds.length} version(s) marked * frees ${formatBytes(p.toFitBudget.bytesFreed)}${p.toFitBudget.fits ? "" : ", still not enough"}.`]
      : []),
    ...(p.removable.length ? p.removable.map((r) => `${plan.has(r.versionId) ? "*" : " "} v${r.number} of "${r.modelName}"  frees ${formatBytes(r.bytesFreed)}`) : ["Nothing can be removed: every version is selected or aliased."]),
    ...p.kept.map((k) => `  kept: v${k.number} of "${k.modelName}" [${k.aliases.join(", ")}]`),
  ];
}
