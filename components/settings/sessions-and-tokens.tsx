"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { ApiTokens } from "./api-tokens";
import { SignInSessions } from "./sign-in-sessions";

/** Settings › Sign-in and API tokens: who may use this workspace, and how to end that. */
export function SessionsAndTokens() {
  const trpc = useTRPC();
  const status = useQuery(trpc.auth.status.queryOptions());
  return (
    <section aria-labelledby="access-heading" className="flex flex-col gap-3">
      <h2 id="access-heading" className="text-lg font-semibold">
        Sign-in and API tokens
      </h2>
      {status.isPending && <Loading />}
      {status.error && <ErrorMessage>Could not load the sign-in settings: {errorText(status.error)}</ErrorMessage>}
      {status.data && <SignInSessions passwordSet={status.data.passwordSet} />}
      <ApiTokens />
    </section>
  );
}
