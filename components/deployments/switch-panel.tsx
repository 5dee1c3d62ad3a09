"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { refusalOf } from "@/components/registry/decision-words";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { QueryState } from "@/components/ui/query-state";
import type { Deployment } from "./deployment-types";
import { changeWords, effectWords, nextReleaseNumber, releaseWords, rollbackTarget, switchableVersions } from "./release-words";

/** A switch to a version the person picks, or a rollback to `toRelease` (null: the latest earlier release of another version). */
export type ReleaseChange = { kind: "switch" } | { kind: "rollback"; toRelease: number | null };

/**
 * The confirmation of a switch or a rollback: what changes (from release X to version Y,
 * as which release), what that means for requests (a resident deployment's switch room,
 * a visible warning when it means a short downtime) and a required why. It decides on the
 * view the person saw when it opened: that revision goes with the request, so a deployment
 * that changed meanwhile is refused (stale_revision) and nothing moves. The request
 * resolves once the switch is done; a candidate that did not load leaves the current
 * release serving, and the confirmation says so instead of closing.
 */
export function SwitchConfirm({ d: seen, change, onClose }: { d: Deployment; change: ReleaseChange; onClose: () => void }) {
  const [d] = useState(seen);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const whyId = useId();
  const versionId = useId();
  const show = useQuery(trpc.deployments.show.queryOptions({ deploymentId: d.id }));
  const model = useQuery({ ...trpc.models.show.queryOptions({ modelId: d.model.id }), enabled: change.kind === "switch" });
  const [why, setWhy] = useState("");
  const [picked, setPicked] = useState<number | null>(null);
  const [notTaken, setNotTaken] = useState<string | null>(null);
  const releases = show.data?.releases ?? [];
  const choices = switchableVersions(model.data?.versions ?? [], d);
  const target = change.kind === "switch" ? null : change.toRelease === null ? rollbackTarget(releases, d) : (releases.find((r) => r.number === change.toRelease) ?? null);
  const version = change.kind === "switch" ? (picked ?? choices[0]?.number ?? null) : (target?.version ?? null);
  const settled = (view: Deployment) => {
    void queryClient.invalidateQueries({ queryKey: trpc.deployments.pathKey() });
    if (view.release?.version === version) onClose();
    else setNotTaken(`Version ${version} is not serving: ${view.reason?.replace(/\.$/, "") ?? `the deployment still serves ${releaseWords(view)}`}.`);
  };
  const doSwitch = useMutation(trpc.deployments.switch.mutationOptions({ onSuccess: settled }));
  const doRollback = useMutation(trpc.deployments.rollback.mutationOptions({ onSuccess: settled }));
  const action = change.kind === "switch" ? doSwitch : doRollback;
  const stale = refusalOf(action.error)?.code === "stale_revision";
  const send = () => {
    const asked = { deploymentId: d.id, expectedRevision: d.revision, why: why.trim() };
    if (change.kind === "switch" && version !== null) doSwitch.mutate({ ...asked, version });
    // The release it names is the one it returns to, even if the history grew since it opened (the revision then refuses it).
    if (change.kind === "rollback" && target) doRollback.mutate({ ...asked, toRelease: target.number });
  };
  const verb = change.kind === "switch" ? "Switch" : "Roll back";
  const effect = version === null ? null : effectWords(d, version);
  const loading = change.kind === "switch" ? model : show;
  return (
    <div role="alertdialog" aria-label={`${verb} ${d.name}`} className="rounded-md border border-slate-300 p-3 text-sm">
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <QueryState query={loading} loading={change.kind === "switch" ? "Reading the model's versions…" : "Reading the releases…"} failure={change.kind === "switch" ? "Could not read the model's versions" : "Could not read the releases"} />
        {change.kind === "switch" && model.data && choices.length === 0 && <p>The model has no other registered version of this kind to switch to: register one from an experiment first.</p>}
        {change.kind === "switch" && choices.length > 0 && (
          <div className="flex flex-col gap-1">
            <label htmlFor={versionId} className="font-medium">
              Version to serve
            </label>
            <select id={versionId} className="min-h-10 rounded-md border border-slate-400 bg-white px-2" value={version ?? ""} disabled={action.isPending} onChange={(e) => setPicked(Number(e.target.value))}>
              {choices.map((v) => (
                <option key={v.number} value={v.number}>
                  version {v.number}
                  {v.aliases.length ? ` (${v.aliases.join(", ")})` : ""}
                </option>
              ))}
            </select>
          </div>
        )}
        {change.kind === "rollback" && show.data && !target && <p>{change.toRelease === null ? "There is no earlier release of another version to roll back to." : `The deployment has no release ${change.toRelease}.`}</p>}
        {version !== null && effect && (
          <>
            <p className="font-medium" data-testid="release-change">
              {changeWords(d, { version, backTo: target?.number }, nextReleaseNumber([...releases, ...(d.release ? [d.release] : [])]))}
            </p>
            {effect.downtime ? (
              <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900" data-testid="switch-downtime">
                <strong>A short downtime:</strong> {effect.words}
              </p>
            ) : (
              <p data-testid="switch-effect">{effect.words}</p>
            )}
          </>
        )}
        <label htmlFor={whyId} className="font-medium">
          Why (kept with the release)
        </label>
        <input id={whyId} required maxLength={500} className="min-h-10 rounded-md border border-slate-400 px-2" value={why} disabled={action.isPending} onChange={(e) => setWhy(e.target.value)} />
        {action.isPending && (
          <p role="status">
            {change.kind === "switch" ? "Switching" : "Rolling back"} to version {version}: this answers once {d.mode === "on_demand" ? "the new release is current" : "the new release has loaded"}. Closing this does not stop it.
          </p>
        )}
        {action.error && (
          <p role="alert" className="text-red-800">
            {errorText(action.error)}
            {stale && " Nothing was changed: close this and look at the deployment again."}
          </p>
        )}
        {notTaken && (
          <p role="alert" className="text-red-800">
            {notTaken}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={version === null || !why.trim() || action.isPending || stale || !!notTaken}>
            {action.isPending ? (change.kind === "switch" ? "Switching…" : "Rolling back…") : `${verb} to version ${version ?? "…"}`}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {action.isPending || notTaken ? "Close" : "Cancel"}
          </Button>
        </div>
      </form>
    </div>
  );
}
