"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { chooseComputer } from "./choose-computer";
import { formatBytes } from "@/contracts/vocabulary";

/**
 * Step 1: the training computer, among every enabled one; the project's default is
 * preselected and can be changed here. The chosen computer's probe shows its capacity.
 */
export function StepComputer({ projectId, targetId, onChange }: { projectId: string; targetId: string | null; onChange: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const targets = useQuery(trpc.targets.list.queryOptions());
  const project = useQuery(trpc.projects.get.queryOptions({ id: projectId }));
  const usable = (targets.data ?? []).filter((t) => t.enabled);
  const chosen = chooseComputer(usable, targetId, project.data?.defaultTargetId ?? null);
  const detail = useQuery({ ...trpc.targets.get.queryOptions({ id: chosen?.id ?? "" }), enabled: Boolean(chosen) });
  const makeDefault = useMutation(
    trpc.projects.setDefaultComputer.mutationOptions({
      onSuccess: (p) => queryClient.setQueryData(trpc.projects.get.queryKey({ id: projectId }), p),
    }),
  );
  if (targets.isPending || project.isPending) return <Loading label="Looking for training computers…" />;
  if (targets.error) return <ErrorMessage>Could not list the training computers: {errorText(targets.error)}</ErrorMessage>;
  if (project.error) return <ErrorMessage>Could not read the project: {errorText(project.error)}</ErrorMessage>;
  if (!chosen) return <ErrorMessage>No training computer is available: every computer is disabled (Settings → Training computers).</ErrorMessage>;
  // No saved default means This computer.
  const defaultId = project.data.defaultTargetId ?? usable.find((t) => t.thisComputer)?.id ?? null;
  const probe = detail.data?.probe;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm text-slate-700">Training runs on the computer you choose. Add servers in Settings → Training computers.</legend>
      {usable.map((t) => (
        <label key={t.id} className="flex min-h-10 flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-slate-300 bg-white p-3">
          <input type="radio" name="training-computer" className="h-5 w-5" checked={chosen.id === t.id} onChange={() => onChange(t.id)} />
          <span className="font-medium">{t.name}</span>
          {t.connection && (
            <span className="break-all text-sm text-slate-700">
              {t.connection.user}@{t.connection.host}
            </span>
          )}
          {t.id === defaultId && <span className="text-sm text-slate-700">(project default)</span>}
          {t.unreachableSince && <span className="text-sm text-amber-800">(not answering since {new Date(t.unreachableSince).toLocaleTimeString()})</span>}
        </label>
      ))}
      {chosen.dataNote && <p className="text-sm text-slate-800">{chosen.dataNote}</p>}
      {chosen.unreachableSince && (
        <p className="text-sm text-amber-900">
          {chosen.name} has not answered since {new Date(chosen.unreachableSince).toLocaleString()}. Check it in Settings → Training computers, or choose another computer.
        </p>
      )}
      {chosen.id === defaultId ? (
        <p className="text-sm text-slate-700">This is the project’s default computer.</p>
      ) : (
        <Button variant="secondary" className="self-start" disabled={makeDefault.isPending} onClick={() => makeDefault.mutate({ id: projectId, targetId: chosen.id })}>
          Make this the project’s default computer
        </Button>
      )}
      {makeDefault.error && <ErrorMessage>Could not save the default: {errorText(makeDefault.error)}</ErrorMessage>}
      {detail.isPending && <Loading label="Reading what this computer has…" />}
      {detail.error && <ErrorMessage>Could not read the computer: {errorText(detail.error)}</ErrorMessage>}
      {detail.data && !probe && <p className="text-sm text-slate-700">{chosen.name} has not been probed yet; its capacity shows once it answers.</p>}
      {probe && (
        <dl className="grid grid-cols-3 gap-3 rounded-md bg-slate-50 p-3" aria-label="Capacity of the training computer">
          <div>
            <dt className="text-xs font-medium text-slate-600">CPUs</dt>
            <dd>{probe.cpus}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-slate-600">RAM</dt>
            <dd>{formatBytes(probe.ramBytes)}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-slate-600">GPUs</dt>
            <dd>{probe.gpus.length ? probe.gpus.map((g) => g.name).join(", ") : "none"}</dd>
          </div>
        </dl>
      )}
    </fieldset>
  );
}
