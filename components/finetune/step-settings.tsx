"use client";
import { LORA_DEVICES } from "@/contracts/recipes/llm-lora";

type LoraDevice = (typeof LORA_DEVICES)[number];
import { SelectField } from "@/components/ui/select-field";
import { FINETUNE_DEFAULTS } from "@/server/finetune/finetune.schema";
import { Field, numberFrom } from "@/components/ui/field";
import type { FineTuneChoices } from "./wizard-state";

type Props = { choices: FineTuneChoices; update: (p: Partial<FineTuneChoices>) => void; errors: Record<string, string> };

const DEVICE_WORDS: Record<LoraDevice, string> = { cpu: "CPU", cuda: "NVIDIA GPU (cuda)", mps: "Apple GPU (mps)" };

/** Step 4: the recommended LoRA settings, each changeable under Advanced; the device is chosen, never a silent fallback. */
export function StepSettings({ choices: c, update, errors }: Props) {
  const recommended =
    c.rank === FINETUNE_DEFAULTS.rank &&
    c.alpha === null &&
    c.learningRate === FINETUNE_DEFAULTS.learningRate &&
    c.maxLength === FINETUNE_DEFAULTS.maxLength &&
    c.batchSize === FINETUNE_DEFAULTS.batchSize;
  const advancedError = ["rank", "alpha", "learningRate", "maxLength", "batchSize"].some((k) => errors[`settings.${k}`]);
  return (
    <div className="flex flex-col gap-4">
      <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-800" data-testid="settings-summary">
        {recommended ? "Recommended: " : "Changed: "}LoRA rank {c.rank} (alpha {c.alpha ?? 2 * c.rank}) on every linear layer, learning rate {c.learningRate}, examples up to {c.maxLength} tokens, batches of{" "}
        {c.batchSize}.
      </p>
      <SelectField id="ft-device" label="Device" value={c.device} onChange={(device) => update({ device })} options={LORA_DEVICES.map((d) => [d, DEVICE_WORDS[d]] as const)} />
      {errors["settings.device"] && (
        <p role="alert" className="text-sm text-red-800">
          {errors["settings.device"]}
        </p>
      )}
      <details open={advancedError || !recommended} className="flex flex-col gap-3">
        <summary className="min-h-10 cursor-pointer text-sm font-medium">Advanced</summary>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="ft-rank" label="LoRA rank" type="number" min={1} max={1024} step={1} value={c.rank} onChange={(e) => update({ rank: Math.round(numberFrom(e.target.value, c.rank)) })} error={errors["settings.rank"]} />
          <Field
            id="ft-alpha"
            label="LoRA alpha (empty: 2 × rank)"
            type="number"
            min={1}
            step={1}
            value={c.alpha ?? ""}
            onChange={(e) => update({ alpha: e.target.value.trim() === "" ? null : Math.round(numberFrom(e.target.value, 2 * c.rank)) })}
            error={errors["settings.alpha"]}
          />
          <Field id="ft-lr" label="Learning rate" type="number" min={1e-7} max={1} step="any" value={c.learningRate} onChange={(e) => update({ learningRate: numberFrom(e.target.value, c.learningRate) })} error={errors["settings.learningRate"]} />
          <Field
            id="ft-max-length"
            label="Max length (tokens per example)"
            type="number"
            min={16}
            max={32768}
            step={1}
            value={c.maxLength}
            onChange={(e) => update({ maxLength: Math.round(numberFrom(e.target.value, c.maxLength)) })}
            hint="Longer examples keep their start; the checks count them."
            error={errors["settings.maxLength"]}
          />
          <Field id="ft-batch" label="Batch size" type="number" min={1} max={512} step={1} value={c.batchSize} onChange={(e) => update({ batchSize: Math.round(numberFrom(e.target.value, c.batchSize)) })} error={errors["settings.batchSize"]} />
        </div>
      </details>
    </div>
  );
}
