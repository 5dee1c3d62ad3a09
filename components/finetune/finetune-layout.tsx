import Link from "next/link";
import type { ReactNode } from "react";
import { formatBytes } from "@/contracts/vocabulary";
import type { FineTuneView } from "@/server/finetune/finetune.schema";
import { Card } from "@/components/ui/card";
import { ChecksPanel } from "./checks-panel";
import { LossChart } from "./loss-chart";
import { PreflightPanel } from "./preflight-panel";
import { BaseVsAdapter, FineTuneVerdictCard, Generations } from "./results";
import { FineTuneStatus } from "./status-panel";

/**
 * A fine-tuning experiment, rendered from its view only. Status, the actions (Cancel,
 * Resume, Run again with the fix), the verdict and the loss come first: on a phone they fill
 * the first screen. A succeeded run's only action is Delete, housekeeping: it comes after
 * the loss, so the verdict stays on the first screen. The
 * actions and "Try it" call the server, so the page passes them in.
 */
export function FineTuneLayout({ view, actions, tryIt }: { view: FineTuneView; actions: ReactNode; tryIt: ReactNode }) {
  const exp = view.experiment;
  const s = exp.settings;
  const base = view.base;
  const loss = view.training?.final ?? view.training;
  const succeeded = exp.status === "succeeded";
  return (
    <section aria-labelledby="experiment-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <Link href={`/projects/${exp.projectId}/ml/experiments`} className="text-sm text-blue-800 underline">
          ← All experiments
        </Link>
        <h2 id="experiment-heading" className="break-words text-lg font-semibold">
          {exp.name}
        </h2>
        <p className="break-words text-sm text-slate-700">
          Fine-tuning {base ? base.name : s.base.kind === "path" ? s.base.path : "an uploaded model"} on {exp.targetName} · LoRA rank {s.rank} · {s.device}
          {s.maxSteps !== undefined && <> · at most {s.maxSteps} steps</>}
        </p>
      </div>
      <FineTuneStatus view={view} />
      {!succeeded && actions}
      {view.receipt && <FineTuneVerdictCard receipt={view.receipt} />}
      <Card title="Loss" id="ft-loss-heading">
        <LossChart train={loss?.trainLoss ?? []} evalLoss={loss?.evalLoss ?? []} />
      </Card>
      {succeeded && actions}
      {view.receipt && (
        <>
          <Card title="Base vs adapter" id="ft-results-heading">
            <BaseVsAdapter receipt={view.receipt} />
          </Card>
          <Card title="Side-by-side answers" id="ft-generations-heading">
            <Generations generations={view.receipt.generations} />
          </Card>
        </>
      )}
      {tryIt}
      {view.export && (
        <Card title="Export" id="ft-export-heading">
          <p className="text-sm text-slate-800">
            The adapter, its config, the base model’s identity, tokenizer and chat template, the model card with both receipts and a generate.py example ({formatBytes(view.export.bytes)}).
          </p>
          <a href={view.export.downloadUrl} className="inline-flex min-h-10 items-center self-start rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800" download>
            Download the adapter
          </a>
          <p className="break-all font-mono text-xs text-slate-700" data-testid="export-checksum">
            {view.export.sha256}
          </p>
        </Card>
      )}
      {view.preflight && (
        <Card title="Preflight" id="ft-preflight-heading">
          <PreflightPanel preflight={view.preflight} />
        </Card>
      )}
      {view.checks && (
        <Card title="Data checks" id="ft-checks-heading">
          <ChecksPanel checks={view.checks} />
        </Card>
      )}
      {base && (
        <Card title="Base model" id="ft-base-heading">
          <p className="break-words text-sm text-slate-800">
            {base.name}: {base.architecture}, {base.parameters.toLocaleString("en-US")} parameters, {base.source === "gguf" ? `dequantized from ${base.dequantizedFrom} (GGUF)` : "a model folder"}; chat template{" "}
            {base.chatTemplate === "model" ? "from the model" : "Trainyard’s default (the model has none)"}; snapshot {base.snapshotSha256.slice(0, 12)}….
          </p>
        </Card>
      )}
    </section>
  );
}
