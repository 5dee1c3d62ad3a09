"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { ChannelKind } from "@/contracts/notifications/notifications";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { fieldErrors, TextField } from "../text-field";
import { CopySecret } from "./copy-secret";

const KIND_WORDS: Record<ChannelKind, { label: string; url: string; hint: string }> = {
  webhook: { label: "Webhook", url: "Webhook URL", hint: "Receives each notification as JSON, signed (Standard Webhooks); the secret is shown once after adding." },
  ntfy: { label: "ntfy", url: "Topic URL", hint: "The topic on your ntfy server, e.g. https://ntfy.sh/a-long-unguessable-topic; subscribe to it in the ntfy app." },
};

/** Adds a webhook or an ntfy channel; a webhook's signing secret is shown once, here. */
export function AddChannelForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ChannelKind>("ntfy");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const create = useMutation(
    trpc.notifications.createChannel.mutationOptions({
      onSuccess: () => {
        setName("");
        setUrl("");
        void queryClient.invalidateQueries({ queryKey: trpc.notifications.channels.queryKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ kind, name, url });
  };
  const errors = fieldErrors(create.error);
  const words = KIND_WORDS[kind];
  return (
    <form onSubmit={submit} className="flex flex-col gap-3 border-t border-slate-100 pt-3" aria-label="Add a notification channel">
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="font-medium">Add a channel</legend>
        <div className="flex flex-wrap gap-4">
          {(Object.keys(KIND_WORDS) as ChannelKind[]).map((k) => (
            <label key={k} className="flex min-h-10 items-center gap-2">
              <input type="radio" name="channel-kind" value={k} checked={kind === k} onChange={() => setKind(k)} className="h-4 w-4" />
              {KIND_WORDS[k].label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField id="channel-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required error={errors.name} />
        <TextField id="channel-url" label={words.url} type="url" inputMode="url" value={url} onChange={(e) => setUrl(e.target.value)} maxLength={2000} required hint={words.hint} error={errors.url} />
      </div>
      <div>
        <Button type="submit" disabled={create.isPending || !name.trim() || !url.trim()}>
          {create.isPending ? "Adding…" : `Add ${words.label} channel`}
        </Button>
      </div>
      {create.error && !errors.name && !errors.url && <ErrorMessage>Not added: {errorText(create.error)}</ErrorMessage>}
      {create.data?.secret && <CopySecret channelName={create.data.channel.name} secret={create.data.secret} />}
      {create.data && !create.data.secret && (
        <p role="status" className="text-sm text-green-800">
          Added &ldquo;{create.data.channel.name}&rdquo;. Press Test to send it a notification.
        </p>
      )}
    </form>
  );
}
