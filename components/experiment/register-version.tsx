"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";

const NEW = "__new__";

/**
 * "Register as a model version": into an existing model of the project or a new one. The
 * backend decides what may be registered and says why not; this shows its answer as is.
 * Registering the same experiment again answers the version it already is.
 */
export function RegisterVersion({ projectId, experimentId }: { projectId: string; experimentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const models = useQuery(trpc.models.list.queryOptions({ projectId }));
  const [choice, setChoice] = useState<string>("");
  const [name, setName] = useState("");
  const register = useMutation(trpc.models.register.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() }) }));
  const list = models.data ?? [];
  const target = choice || (list[0]?.id ?? NEW);
  const r = register.data;
  return (
    <section aria-labelledby="register-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h3 id="register-heading" className="text-base font-semibold">
        Register as a model version
      </h3>
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          register.mutate(target === NEW ? { experimentId, newModelName: name } : { experimentId, modelId: target });
        }}
      >
        <label className="flex flex-col gap-1">
          <span className="font-medium">Model</span>
          <select value={target} onChange={(e) => setChoice(e.target.value)} className="min-h-10 rounded-md border border-slate-400 bg-white px-2">
            {list.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.versionCount} {m.versionCount === 1 ? "version" : "versions"})
              </option>
            ))}
            <option value={NEW}>A new model…</option>
          </select>
        </label>
        {target === NEW && (
          <label className="flex flex-col gap-1">
            <span className="font-medium">New model name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} className="min-h-10 rounded-md border border-slate-400 px-2" placeholder="Species classifier" />
          </label>
        )}
        {/* Only once the models are known: else "a new model" is preselected while the list loads. */}
        <Button type="submit" className="self-start" disabled={register.isPending || !models.data}>
          {register.isPending ? "Registering…" : "Register this experiment"}
        </Button>
      </form>
      {models.error && <ErrorMessage>Could not load the project&apos;s models: {errorText(models.error)}</ErrorMessage>}
      {register.error && <ErrorMessage>Not registered: {errorText(register.error)}</ErrorMessage>}
      {r && (
        <p role="status" data-testid="register-result">
          {r.created ? "Registered as" : "Already registered as"} version {r.version.number} of “{r.model.name}”.
          {r.exportNote && ` ${r.exportNote}`}{" "}
          <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/models`}>
            Open Models
          </Link>
        </p>
      )}
    </section>
  );
}
