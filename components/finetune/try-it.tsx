"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { Card } from "@/components/ui/card";
import { SideBySide } from "./side-by-side";

const newOpId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`);

/** "Try it": a prompt answered by the adapter and the base through a short job, polled until it ends. */
export function TryIt({ experimentId }: { experimentId: string }) {
  const trpc = useTRPC();
  const [prompt, setPrompt] = useState("");
  const ask = useMutation(trpc.finetune.tryIt.mutationOptions());
  const tryId = ask.data?.tryId ?? null;
  const result = useQuery({
    ...trpc.finetune.tryItResult.queryOptions({ id: experimentId, tryId: tryId ?? "" }),
    enabled: Boolean(tryId),
    refetchInterval: (q) => (q.state.data?.state === "running" || !q.state.data ? 1500 : false),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (prompt.trim()) ask.mutate({ id: experimentId, opId: newOpId(), prompt, maxNewTokens: 128 });
  };
  const r = result.data;
  const waiting = ask.isPending || (Boolean(tryId) && (!r || r.state === "running"));
  return (
    <Card title="Try it" id="ft-try-heading">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <label htmlFor="ft-try-prompt" className="text-sm font-medium">
          Prompt
        </label>
        <textarea id="ft-try-prompt" rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} className="min-h-20 w-full rounded-md border border-slate-400 p-2 text-sm" />
        <Button type="submit" className="self-start" disabled={!prompt.trim() || waiting}>
          {waiting ? "Answering…" : "Answer"}
        </Button>
      </form>
      {waiting && <Loading label="The adapter and the base model are answering (a short job on the training computer)…" />}
      {ask.error && <ErrorMessage>Could not ask: {errorText(ask.error)}</ErrorMessage>}
      {result.error && <ErrorMessage>Could not read the answer: {errorText(result.error)}</ErrorMessage>}
      {r?.state === "failed" && <ErrorMessage>{r.message}</ErrorMessage>}
      {r?.state === "succeeded" && (
        <div className="flex flex-col gap-1" data-testid="try-result">
          <SideBySide
            columns="md:grid-cols-2"
            answers={[
              ["With the adapter", r.adapter, "bg-green-50"],
              ["Base model", r.base, "bg-white"],
            ]}
          />
          <p className="text-xs text-slate-600">Answered in {r.seconds.toFixed(1)} s.</p>
        </div>
      )}
    </Card>
  );
}
