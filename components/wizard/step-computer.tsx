"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { formatBytes } from "./format";

/** Step 1: the training computer. Only This computer for now; its probe shows capacity. */
export function StepComputer({ targetId, onChange }: { targetId: string | null; onChange: (id: string) => void }) {
  const trpc = useTRPC();
  const targets = useQuery(trpc.targets.list.queryOptions());
  const usable = (targets.data ?? []).filter((t) => t.kind === "local" && t.enabled);
  const chosen = targetId ?? usable[0]?.id ?? null;
  const detail = useQuery({ ...trpc.targets.get.queryOptions({ id: chosen ?? "" }), enabled: Boolean(chosen) });
  if (targets.isPending) return <Loading label="Looking for training computers…" />;
  if (targets.error) return <ErrorMessage>Could not list the training computers: {errorText(targets.error)}</ErrorMessage>;
  if (!usable.length) return <ErrorMessage>No training computer is available: This computer is missing or disabled (Settings → Computers).</ErrorMessage>;
  const probe = detail.data?.probe;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm text-slate-700">Training runs on the computer you choose. Remote servers come later.</legend>
      {usable.map((t) => (
        <label key={t.id} className="flex min-h-10 items-center gap-2 rounded-md border border-slate-300 bg-white p-3">
          <input type="radio" name="training-computer" className="h-5 w-5" checked={chosen === t.id} onChange={() => onChange(t.id)} />
          <span className="font-medium">{t.name}</span>
          {t.unreachableSince && <span className="text-sm text-amber-800">(not answering since {new Date(t.unreachableSince).toLocaleTimeString()})</span>}
        </label>
      ))}
      {detail.isPending && chosen && <Loading label="Reading what this computer has…" />}
      {detail.error && <ErrorMessage>Could not read the computer: {errorText(detail.error)}</ErrorMessage>}
      {detail.data && !probe && <p className="text-sm text-slate-700">This computer has not been probed yet; its capacity shows once it answers.</p>}
      {probe && (
        <dl className="grid grid-cols-3 gap-3 rounded-md bg-slate-50 p-3" aria-label="Capacity of the training computer">
          <div>
            <dt className="text-xs font-medium uppercase text-slate-600">CPUs</dt>
            <dd>{probe.cpus}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase text-slate-600">RAM</dt>
            <dd>{formatBytes(probe.ramBytes)}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase text-slate-600">GPUs</dt>
            <dd>{probe.gpus.length ? probe.gpus.map((g) => g.name).join(", ") : "none"}</dd>
          </div>
        </dl>
      )}
    </fieldset>
  );
}
