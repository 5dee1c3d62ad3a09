"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { Field } from "./field";
import { insideRoots } from "./finetune-words";

/**
 * Step 2: the base model, a path on the training computer (a Hugging Face folder or a
 * .gguf file) inside the allowed folders. The server checks the model itself; this step
 * says at once when the path is outside every allowed folder.
 */
export function StepBaseModel({ path, onChange, error }: { path: string; onChange: (path: string) => void; error?: string }) {
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.get.queryOptions());
  const roots = settings.data?.values.allowedRoots ?? [];
  const outside = settings.data && path.trim() && !insideRoots(path, roots) ? `${path.trim()} is not inside an allowed folder (${roots.join(", ") || "none yet"}).` : undefined;
  return (
    <div className="flex flex-col gap-3">
      <QueryState query={settings} loading="Reading the allowed folders…" failure="Could not read the allowed folders" />
      {settings.data && roots.length === 0 && (
        <p className="text-sm text-amber-900">
          No folder is allowed for files by path yet. An owner can add one under{" "}
          <a className="text-blue-800 underline" href="/settings">
            Settings → Data → Allowed folders
          </a>
          .
        </p>
      )}
      <Field
        id="ft-model-path"
        label="Model folder or .gguf file on the training computer"
        value={path}
        onChange={(e) => onChange(e.target.value)}
        placeholder={`${roots[0] ?? "/data"}/models/SmolLM2-135M-Instruct`}
        hint={
          <>
            A Hugging Face folder (config.json, safetensors weights, tokenizer) or a GGUF file from llama.cpp or Ollama, which is dequantized on import. Allowed folders:{" "}
            {roots.join(", ") || "none"}. Nothing is downloaded.
          </>
        }
        error={error ?? outside}
      />
      <p className="text-sm text-slate-700">
        Uploading a .gguf from the browser is not available yet: put the model on the training computer, or send it from your machine with <code>trainyard finetune --model FILE.gguf</code>.
      </p>
    </div>
  );
}
