"use client";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { z } from "zod";
import { postFile } from "@/components/data/upload-xhr";
import { useTRPC } from "@/components/providers/trpc";
import { FileUpload, type SendFile } from "@/components/ui/file-upload";
import { QueryState } from "@/components/ui/query-state";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatBytes } from "@/contracts/vocabulary";
import { Field } from "@/components/ui/field";
import { insideRoots } from "./finetune-words";
import type { BaseChoice, SentGguf } from "./wizard-state";

/** POST /api/finetune/uploads answers the stored file (server/finetune/uploads.ts ModelUploadResult). */
const ZStoredModelFile = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().nonnegative(), reused: z.boolean() });

/**
 * Step 2: the base model. Either a path on the training computer (a Hugging Face folder
 * or a .gguf file) inside the allowed folders, said at once when it is outside them; or a
 * .gguf file sent from this browser, stored by its SHA-256 on This computer and pushed to
 * the training computer by the chain. The server checks the model itself.
 */
export function StepBaseModel({ projectId, base, onChange, error }: { projectId: string; base: BaseChoice; onChange: (base: BaseChoice) => void; error?: string }) {
  const name = useId();
  const upload = base.kind === "upload";
  const choose = (kind: "path" | "upload") => onChange(kind === "path" ? { kind: "path", path: "" } : { kind: "upload", sent: null });
  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">Where is the base model?</legend>
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input type="radio" name={name} checked={!upload} onChange={() => choose("path")} />
          On the training computer (a folder or a .gguf file by path)
        </label>
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input type="radio" name={name} checked={upload} onChange={() => choose("upload")} />
          A .gguf file on this device (sent from the browser)
        </label>
      </fieldset>
      {base.kind === "upload" ? (
        <GgufUpload projectId={projectId} sent={base.sent} onSent={(sent) => onChange({ kind: "upload", sent })} error={error} />
      ) : (
        <PathField path={base.path} onChange={(path) => onChange({ kind: "path", path })} error={error} />
      )}
    </div>
  );
}

function GgufUpload({ projectId, sent, onSent, error }: { projectId: string; sent: SentGguf | null; onSent: (sent: SentGguf) => void; error?: string }) {
  const send: SendFile = (file, onProgress) => {
    if (!file.name.toLowerCase().endsWith(".gguf")) return { abort: () => {}, promise: Promise.resolve({ error: `${file.name} is not a .gguf file. A model folder is sent with trainyard finetune --model FOLDER.` }) };
    const q = new URLSearchParams({ projectId, fileName: file.name });
    const sending = postFile(`/api/finetune/uploads?${q}`, file, onProgress);
    return {
      abort: sending.abort,
      promise: sending.promise.then((answer) => {
        const stored = ZStoredModelFile.safeParse(answer);
        if (!answer.ok || !stored.success) return { error: answer.error ?? `Upload failed (${answer.status}).` };
        onSent({ fileName: file.name, sha256: stored.data.sha256, bytes: stored.data.bytes });
        return { done: `${file.name} stored (${formatBytes(stored.data.bytes)}${stored.data.reused ? ", already on the server: not stored twice" : ""}).` };
      }),
    };
  };
  return (
    <div className="flex flex-col gap-2">
      <FileUpload id="ft-model-upload" label="GGUF file (llama.cpp, Ollama); it is dequantized on import" accept=".gguf" send={send} />
      {sent && (
        <p className="text-sm text-slate-700" data-testid="ft-model-stored">
          Base model: {sent.fileName}, SHA-256 <code>{sent.sha256.slice(0, 12)}…</code>
        </p>
      )}
      <p className="text-sm text-slate-700">A model folder is sent with <code>trainyard finetune --model FOLDER</code>, one file at a time.</p>
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </div>
  );
}

function PathField({ path, onChange, error }: { path: string; onChange: (path: string) => void; error?: string }) {
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
          , or choose a .gguf file on this device above.
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
    </div>
  );
}
