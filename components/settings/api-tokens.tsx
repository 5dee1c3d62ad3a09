"use client";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { formatTime } from "./format";
import { CredentialList } from "./credential-list";
import { TextField } from "./text-field";
import { SCOPE_WORDS, TOKEN_SCOPES, type TokenScope } from "@/server/auth/scopes";

const at = (d: Date | null) => formatTime(d ? d.toISOString() : null);

/** API tokens for scripts: created here or with `trainyard token create`, shown once. */
export function ApiTokens() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.auth.tokens.queryOptions());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.auth.tokens.queryKey() });
  const revoke = useMutation(trpc.auth.revokeToken.mutationOptions({ onSuccess: refresh }));
  const create = useMutation(trpc.auth.createToken.mutationOptions({ onSuccess: refresh }));
  const [name, setName] = useState("");
  const [expires, setExpires] = useState("");
  const [scope, setScope] = useState<TokenScope>("full");

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name, expires: expires.trim() || undefined, scope });
  };

  return (
    <section aria-labelledby="tokens-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="tokens-heading" className="text-base font-semibold">
        API tokens
      </h3>
      <p className="text-sm text-slate-700">
        Scripts send a token as <code className="font-mono">Authorization: Bearer …</code>. Its scope decides what it reaches; give an agent the agent scope.
      </p>
      <QueryState query={tokens} loading="Loading tokens…" failure="Could not load the tokens" />
      <CredentialList
        label="API tokens"
        items={tokens.data}
        empty="No API tokens yet."
        row={(t) => ({
          title: (
            <>
              {t.name} <code className="font-mono font-normal text-slate-700">{t.prefix}…</code>{" "}
              <span className="font-normal text-slate-700">
                ({t.scope}, {t.state})
              </span>
            </>
          ),
          dates: (
            <>
              Created {at(t.createdAt)} · last used {at(t.lastUsedAt)} ·{" "}
              {t.state === "revoked" ? `revoked ${at(t.revokedAt)}` : t.expiresAt ? `${t.state === "expired" ? "expired" : "expires"} ${at(t.expiresAt)}` : "no expiry"}
            </>
          ),
          action: t.state === "active" && (
            <Button variant="secondary" onClick={() => revoke.mutate({ id: t.id })} disabled={revoke.isPending} aria-label={`Revoke the token ${t.name}`}>
              Revoke
            </Button>
          ),
        })}
      />
      {revoke.error && <ErrorMessage>{errorText(revoke.error)}</ErrorMessage>}

      <form onSubmit={submit} className="mt-2 flex flex-col gap-2 border-t border-slate-100 pt-3" aria-label="Create an API token">
        <div className="grid gap-2 sm:grid-cols-2">
          <TextField id="token-name" label="New token name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
          <TextField
            id="token-expires"
            label="Expires after (optional)"
            hint="e.g. 12h, 30d or 2w; empty: until revoked"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            maxLength={20}
          />
        </div>
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className="font-medium">Scope</legend>
          {TOKEN_SCOPES.map((s) => (
            <label key={s} className="flex items-start gap-2">
              <input type="radio" name="token-scope" value={s} checked={scope === s} onChange={() => setScope(s)} className="mt-0.5 h-4 w-4" />
              <span>
                <span className="font-medium">{s}</span>: {SCOPE_WORDS[s]}
              </span>
            </label>
          ))}
        </fieldset>
        <div>
          <Button type="submit" disabled={create.isPending || !name.trim()}>
            {create.isPending ? "Creating…" : "Create token"}
          </Button>
        </div>
        {create.error && <ErrorMessage>{errorText(create.error)}</ErrorMessage>}
        {create.data && (
          <div role="status" className="flex flex-col gap-1 rounded-md border border-green-200 bg-green-50 p-3 text-sm">
            <p>This token is shown once; store it now:</p>
            <code className="break-all font-mono">
              {create.data.token}
            </code>
          </div>
        )}
      </form>
    </section>
  );
}
