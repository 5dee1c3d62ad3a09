"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatTime } from "./format";

/**
 * Host keys the owner accepted in Trainyard (besides their own known_hosts). Forgetting
 * one makes the next connection to that server ask again, e.g. after accepting by mistake.
 */
export function AcceptedHostKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.targets.acceptedHostKeys.queryOptions());
  const forget = useMutation(
    trpc.targets.forgetHostKey.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.targets.pathKey() }) }),
  );
  if (!keys.data?.length) return keys.error ? <ErrorMessage>Could not load the accepted host keys: {errorText(keys.error)}</ErrorMessage> : null;
  return (
    <section aria-labelledby="host-keys-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="host-keys-heading" className="text-base font-semibold">
        Host keys accepted in Trainyard
      </h3>
      <p className="text-sm text-slate-700">Keys in your own known_hosts files are not listed here. Forget a key to be asked again at the next connection.</p>
      <ul className="flex flex-col gap-2" aria-label="Accepted host keys">
        {keys.data.map((k) => (
          <li key={k.id} className="flex flex-col gap-1 border-t border-slate-100 pt-2 text-sm sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="font-medium">
                {k.hostName} <span className="font-normal text-slate-700">({k.keyType}, accepted {formatTime(k.acceptedAt)})</span>
              </p>
              <code className="block break-all font-mono text-slate-900">{k.fingerprint}</code>
            </div>
            <Button variant="secondary" onClick={() => forget.mutate({ id: k.id })} disabled={forget.isPending} aria-label={`Forget the ${k.keyType} key of ${k.hostName}`}>
              Forget
            </Button>
          </li>
        ))}
      </ul>
      {forget.error && <ErrorMessage>{errorText(forget.error)}</ErrorMessage>}
    </section>
  );
}
