import type { LoraReceipt } from "@/contracts/recipes/llm-lora";
import { fineTuneVerdict } from "./finetune-words";
import { SideBySide } from "./side-by-side";

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** The verdict in words, from the trusted receipt only; shown first on a finished run (and on a phone). */
export function FineTuneVerdictCard({ receipt }: { receipt: LoraReceipt }) {
  const v = fineTuneVerdict(receipt)!;
  return (
    <div role="status" data-testid="finetune-verdict" className={`flex flex-col gap-1 rounded-lg border p-4 ${v.better ? "border-green-300 bg-green-50" : "border-amber-300 bg-amber-50"}`}>
      <p className="font-semibold text-slate-900">{v.better ? "Better than base" : "Not better than base"}</p>
      <p className="text-sm text-slate-900">{v.headline}</p>
      <p className="text-sm text-slate-800">{v.detail}</p>
    </div>
  );
}

/** Base vs adapter on the same evaluation examples, with the same masking (the receipt's numbers). */
export function BaseVsAdapter({ receipt }: { receipt: LoraReceipt }) {
  const rows: [string, string, string][] = [
    ["Mean loss per answer token (lower is better)", receipt.base.meanNll.toFixed(4), receipt.adapter.meanNll.toFixed(4)],
    ["Perplexity", receipt.base.perplexity.toFixed(2), receipt.adapter.perplexity.toFixed(2)],
    ["Answer tokens scored", String(receipt.base.tokens), String(receipt.adapter.tokens)],
  ];
  if (receipt.exactMatch) rows.push([`Exact match of the answer (${receipt.exactMatch.examples} prompts, pattern ${receipt.exactMatch.pattern})`, pct(receipt.exactMatch.base), pct(receipt.exactMatch.adapter)]);
  return (
    <div className="flex flex-col gap-2">
      <div role="region" aria-label="Base vs adapter table" tabIndex={0} className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1 pr-3 font-medium">Measure</th>
              <th scope="col" className="py-1 pr-3 font-medium">Base model</th>
              <th scope="col" className="py-1 font-medium">With the adapter</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([k, b, a]) => (
              <tr key={k} className="border-b border-slate-100">
                <th scope="row" className="py-1 pr-3 font-normal">{k}</th>
                <td className="py-1 pr-3 font-mono" data-testid="base-score">{b}</td>
                <td className="py-1 font-mono" data-testid="adapter-score">{a}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-600">
        Scored by {receipt.evaluator.recipe} {receipt.evaluator.recipeVersion} on {receipt.examples} held-out examples (max length {receipt.maxLength}
        {receipt.droppedNoAnswerLeft ? `; ${receipt.droppedNoAnswerLeft} dropped with no answer left after truncation` : ""}); evaluation set {receipt.evalSetSha256.slice(0, 12)}….
      </p>
    </div>
  );
}

/** A few greedy answers of the base and the adapter to the same held-out prompts, next to the reference. */
export function Generations({ generations }: { generations: LoraReceipt["generations"] }) {
  if (!generations.length) return <p className="text-sm text-slate-700">No generations were asked for.</p>;
  return (
    <ol className="flex flex-col gap-4" aria-label="Generations">
      {generations.map((g, i) => (
        <li key={i} className="flex flex-col gap-2">
          <p className="whitespace-pre-wrap break-words text-sm">
            <span className="font-medium">Prompt: </span>
            {g.prompt}
          </p>
          <SideBySide
            columns="md:grid-cols-3"
            answers={[
              ["Reference", g.reference, "bg-slate-50"],
              ["Base model", g.base, "bg-white"],
              ["With the adapter", g.adapter, "bg-green-50"],
            ]}
          />
        </li>
      ))}
    </ol>
  );
}
