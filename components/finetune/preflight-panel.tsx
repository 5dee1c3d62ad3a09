import type { LoraPreflight } from "@/contracts/recipes/llm-lora";
import { preflightWords } from "./finetune-words";
import { FactList } from "@/components/ui/fact-list";

/** What the preflight measured before the full run: the device works, the memory fits, how long it takes. */
export function PreflightPanel({ preflight }: { preflight: LoraPreflight }) {
  const w = preflightWords(preflight);
  const rows: [string, string][] = [
    ["Device check", w.device],
    ["Memory", w.memory],
  ];
  if (w.time) rows.push(["Time estimate", w.time]);
  return (
    <div className="flex flex-col gap-2">
      {w.fitted && (
        <p className="rounded-md border border-sky-300 bg-sky-50 p-2 text-sm text-sky-950" data-testid="preflight-fitted">
          {w.fitted}
        </p>
      )}
      <FactList rows={rows} label="Preflight" />
      {!w.fits && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          This setup does not fit the device’s memory, so training was not started. {w.fitting}
        </p>
      )}
    </div>
  );
}
