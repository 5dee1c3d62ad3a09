"use client";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { browserLabel } from "./browser-label";
import { CredentialList } from "./credential-list";
import { formatTime } from "./format";

const at = (d: Date | null) => formatTime(d ? d.toISOString() : null);

/**
 * Browsers signed in with the owner password. A session ends after 7 days unused or 30
 * days after sign-in; signing one out here ends it at once on that browser's next request.
 */
export function SignInSessions({ passwordSet }: { passwordSet: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const sessions = useQuery({ ...trpc.auth.sessions.queryOptions(), enabled: passwordSet });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() });
  const revoke = useMutation(trpc.auth.revokeSession.mutationOptions({ onSuccess: refresh }));
  // This browser's session ends too: go to the sign-in page.
  const everywhere = useMutation(trpc.auth.signOutEverywhere.mutationOptions({ onSuccess: () => router.replace("/login") }));

  return (
    <section aria-labelledby="sessions-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="sessions-heading" className="text-base font-semibold">
        Signed-in browsers
      </h3>
      {!passwordSet ? (
        <p className="text-sm text-slate-700">
          No owner password is set, so nobody signs in and there are no sessions. Set one with{" "}
          <code className="font-mono">npx trainyard owner set-password</code>.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700">A sign-in lasts until it is unused for 7 days, and at most 30 days.</p>
          <QueryState query={sessions} loading="Loading sessions…" failure="Could not load the sessions" />
          <CredentialList
            label="Signed-in browsers"
            items={sessions.data}
            empty="No browser is signed in (you are using an API token or the open loopback mode)."
            row={(s) => ({
              title: (
                <>
                  {browserLabel(s.userAgent)}
                  {s.current && <span className="ml-2 rounded bg-blue-100 px-1.5 py-0.5 text-xs font-semibold text-blue-900">This browser</span>}
                </>
              ),
              dates: `Signed in ${at(s.createdAt)} · last seen ${at(s.lastSeenAt)} · ends ${at(s.endsAt)}`,
              action: !s.current && (
                <Button
                  variant="secondary"
                  onClick={() => revoke.mutate({ id: s.id })}
                  disabled={revoke.isPending}
                  aria-label={`Sign out ${browserLabel(s.userAgent)}, signed in ${at(s.createdAt)}`}
                >
                  Sign out
                </Button>
              ),
            })}
          />
          <div>
            <Button variant="danger" onClick={() => everywhere.mutate()} disabled={everywhere.isPending || !sessions.data?.length}>
              {everywhere.isPending ? "Signing out…" : "Sign out everywhere"}
            </Button>
            <p className="mt-1 text-xs text-slate-700">Ends every session, this one included. API tokens are not affected.</p>
          </div>
          {revoke.error && <ErrorMessage>{errorText(revoke.error)}</ErrorMessage>}
          {everywhere.error && <ErrorMessage>{errorText(everywhere.error)}</ErrorMessage>}
        </>
      )}
    </section>
  );
}
