"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ChannelView } from "@/contracts/notifications/notifications";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { DeleteOrKeep } from "@/components/ui/delete-or-keep";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";

/** One channel: where it sends, Test (with the answer), enable or disable, remove after a confirmation. */
export function ChannelRow({ channel }: { channel: ChannelView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.notifications.pathKey() });
  const test = useMutation(trpc.notifications.testChannel.mutationOptions({ onSettled: refresh }));
  const setEnabled = useMutation(trpc.notifications.setChannelEnabled.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.notifications.removeChannel.mutationOptions({ onSuccess: refresh }));
  const [confirming, setConfirming] = useState(false);
  const c = channel;
  return (
    <li className="flex min-w-0 flex-col gap-2 border-t border-slate-100 pt-3 text-sm">
      <div className="min-w-0">
        <p className="font-medium">
          {c.name} <span className="font-normal text-slate-700">({c.kind === "ntfy" ? "ntfy" : "webhook"}{c.enabled ? "" : ", disabled"})</span>
        </p>
        <p className="break-all font-mono text-xs text-slate-700">{c.url}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => test.mutate({ channelId: c.id })} disabled={test.isPending || !c.enabled}>
          {test.isPending ? "Sending…" : "Test"}
          <span className="sr-only"> the channel {c.name}</span>
        </Button>
        <Button variant="secondary" onClick={() => setEnabled.mutate({ channelId: c.id, enabled: !c.enabled })} disabled={setEnabled.isPending}>
          {c.enabled ? "Disable" : "Enable"}
          <span className="sr-only"> the channel {c.name}</span>
        </Button>
        {!confirming && (
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            Remove<span className="sr-only"> the channel {c.name}</span>
          </Button>
        )}
      </div>
      {test.data && <TestAnswer delivered={test.data.delivered} status={test.data.status} error={test.data.error} />}
      {test.error && <ErrorMessage>Test not sent: {errorText(test.error)}</ErrorMessage>}
      {setEnabled.error && <ErrorMessage>{errorText(setEnabled.error)}</ErrorMessage>}
      {confirming && (
        <div className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-red-950">
          <p>Remove &ldquo;{c.name}&rdquo;? Nothing more is sent to it; what was still waiting for it is marked failed. Its past deliveries stay in the log.</p>
          <DeleteOrKeep
            className="flex flex-col gap-2 sm:flex-row"
            label={`Remove ${c.name}`}
            pending={remove.isPending}
            onDelete={() => remove.mutate({ channelId: c.id })}
            onKeep={() => setConfirming(false)}
          />
          {remove.error && <ErrorMessage>{errorText(remove.error)}</ErrorMessage>}
        </div>
      )}
    </li>
  );
}

function TestAnswer({ delivered, status, error }: { delivered: boolean; status: number | null; error: string | null }) {
  if (delivered)
    return (
      <p role="status" className="text-green-800">
        Delivered{status ? ` (HTTP ${status})` : ""}. Check that it arrived.
      </p>
    );
  return (
    <p role="status" className="break-words text-red-800">
      Not delivered: {error ?? "no answer"}. It is retried with backoff; the delivery log below follows it.
    </p>
  );
}
