"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";

/** A console key's end, in words (the list leaves out keys that have expired). */
function ExpiryWords({ at }: { at: Date }) {
  return <span className="text-slate-600">works until {at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}</span>;
}

/** A deployment's keys: create one (shown only this once), list them by prefix, revoke. */
export function KeysPanel({ deploymentId, onKey }: { deploymentId: string; onKey: (key: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.deployments.listKeys.queryOptions({ deploymentId }));
  const [shown, setShown] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.deployments.listKeys.queryKey({ deploymentId }) });
  const create = useMutation(trpc.deployments.createKey.mutationOptions({ onSuccess: (k) => (setShown(k.key), onKey(k.key), refresh()) }));
  const revoke = useMutation(trpc.deployments.revokeKey.mutationOptions({ onSuccess: refresh }));
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="deployment-keys">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Keys</span>
        <Button variant="secondary" disabled={create.isPending} onClick={() => create.mutate({ deploymentId, name: `key ${new Date().toISOString().slice(0, 16)}` })}>
          Create a key
        </Button>
      </div>
      {shown && (
        <p role="status" className="break-all rounded-md border border-amber-300 bg-amber-50 px-3 py-2 font-mono text-xs" data-testid="new-key">
          {shown}
          <span className="block font-sans text-amber-900">Shown only this once: copy it now.</span>
        </p>
      )}
      <ul className="flex flex-col gap-1">
        {(keys.data ?? []).map((k) => (
          <li key={k.id} className="flex flex-wrap items-center gap-2">
            <span className="font-mono">{k.prefix}…</span>
            <span>{k.name}</span>
            {k.expiresAt && !k.revokedAt && <ExpiryWords at={new Date(k.expiresAt)} />}
            {k.revokedAt ? (
              <span className="text-slate-600">revoked</span>
            ) : (
              <Button variant="secondary" disabled={revoke.isPending} onClick={() => revoke.mutate({ deploymentId, keyId: k.id })}>
                Revoke
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
