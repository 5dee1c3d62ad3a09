"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { formatBytes } from "@/contracts/vocabulary";

/**
 * What the chosen computer can do for fine-tuning, from its probe: GPUs with their
 * memory, and an honest word on CPU speed (measured: a 135M-parameter model trains at
 * about 100-120 tokens/s on 2 cores).
 */
export function ComputerAbility({ targetId }: { targetId: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.targets.get.queryOptions({ id: targetId }));
  const probe = detail.data?.probe;
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-200 p-3" data-testid="computer-ability">
      <QueryState query={detail} loading="Reading what this computer can do…" failure="Could not read the computer" />
      {probe && (
        <>
          <p className="text-sm text-slate-800">
            {probe.cpus} CPUs, {formatBytes(probe.ramBytes)} memory
            {probe.gpus.length ? `; GPUs: ${probe.gpus.map((g) => `${g.name} (${formatBytes(g.memoryTotalBytes)}, ${formatBytes(g.memoryFreeBytes)} free)`).join(", ")}` : "; no GPU"}
            {probe.gpuProblem ? ` (${probe.gpuProblem})` : ""}.
          </p>
          <p className="text-sm text-slate-700">
            {probe.gpus.length
              ? "Choose the GPU (cuda) under Settings → Advanced; the preflight checks it works and that the model fits its memory before training."
              : "On CPU a small model (135M parameters) trains at about 100 tokens/s: minutes for a few hundred short examples, hours for models of a billion parameters or more."}{" "}
            The preflight measures the real speed and refuses a run that cannot fit the budget.
          </p>
        </>
      )}
    </div>
  );
}
