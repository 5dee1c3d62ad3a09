"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { TargetView } from "@/server/targets/targets.schema";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { fieldErrors, TextField } from "./text-field";

const DEFAULT_WORKER_DIR = "~/.trainyard";

interface Values {
  name: string;
  mode: "alias" | "manual";
  alias: string;
  host: string;
  port: string;
  user: string;
  keyPath: string;
  workerDir: string;
  nodePath: string;
}

function initialValues(t?: TargetView): Values {
  const c = t?.connection;
  return {
    name: t?.name ?? "",
    mode: c && !c.alias ? "manual" : "alias",
    alias: c?.alias ?? "",
    host: c?.host ?? "",
    port: String(c?.port ?? 22),
    user: c?.user ?? "",
    keyPath: c?.keyFiles[0] ?? "",
    workerDir: c?.workerDir ?? DEFAULT_WORKER_DIR,
    nodePath: c?.nodePath ?? "",
  };
}

function toInput(v: Values) {
  const connection =
    v.mode === "alias"
      ? { mode: "alias" as const, alias: v.alias.trim() }
      : { mode: "manual" as const, host: v.host.trim(), port: v.port.trim() || undefined, user: v.user.trim(), keyPath: v.keyPath };
  return { name: v.name, connection, workerDir: v.workerDir, nodePath: v.nodePath };
}

/**
 * Adds an SSH server, or edits one when `target` is given. Validation is the server's
 * (the same zod schema the CLI meets); its messages show next to the fields they name.
 */
export function ServerForm({ target, onDone, onCancel }: { target?: TargetView; onDone: () => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [v, setV] = useState(() => initialValues(target));
  const set = (patch: Partial<Values>) => setV((old) => ({ ...old, ...patch }));
  const onSuccess = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.targets.pathKey() });
    onDone();
  };
  const add = useMutation(trpc.targets.addServer.mutationOptions({ onSuccess }));
  const update = useMutation(trpc.targets.updateServer.mutationOptions({ onSuccess }));
  const save = target ? update : add;
  const errors = fieldErrors(save.error);
  const shown = ["name", "workerDir", "nodePath", ...(v.mode === "alias" ? ["connection.alias"] : ["connection.host", "connection.port", "connection.user", "connection.keyPath"])];
  const allPlaced = Object.keys(errors).length > 0 && Object.keys(errors).every((k) => shown.includes(k));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (target) update.mutate({ id: target.id, ...toInput(v) });
    else add.mutate(toInput(v));
  };
  const f = (name: string) => `${id}-${name}`;
  return (
    <form onSubmit={submit} noValidate aria-label={target ? `Edit ${target.name}` : "Add a server"} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <TextField id={f("name")} label="Display name" value={v.name} onChange={(e) => set({ name: e.target.value })} error={errors.name} placeholder="e.g. GPU box" />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">How Trainyard reaches the server</legend>
        {(
          [
            ["alias", "Host alias from ~/.ssh/config"],
            ["manual", "Host, port, user and key file"],
          ] as const
        ).map(([mode, label]) => (
          <label key={mode} className="flex min-h-10 items-center gap-2 text-sm">
            <input type="radio" name={f("mode")} className="h-5 w-5" checked={v.mode === mode} onChange={() => set({ mode })} />
            {label}
          </label>
        ))}
      </fieldset>
      {v.mode === "alias" ? (
        <TextField
          id={f("alias")}
          label="Host alias"
          value={v.alias}
          onChange={(e) => set({ alias: e.target.value })}
          error={errors["connection.alias"]}
          hint="A Host entry of your ~/.ssh/config on this computer; its HostName, Port, User and IdentityFile apply."
          autoCapitalize="off"
          spellCheck={false}
        />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField id={f("host")} label="Host name or address" value={v.host} onChange={(e) => set({ host: e.target.value })} error={errors["connection.host"]} autoCapitalize="off" spellCheck={false} />
          <TextField id={f("port")} label="Port" inputMode="numeric" value={v.port} onChange={(e) => set({ port: e.target.value })} error={errors["connection.port"]} />
          <TextField id={f("user")} label="User on the server" value={v.user} onChange={(e) => set({ user: e.target.value })} error={errors["connection.user"]} autoCapitalize="off" spellCheck={false} />
          <TextField
            id={f("key")}
            label="Key file on this computer (optional)"
            value={v.keyPath}
            onChange={(e) => set({ keyPath: e.target.value })}
            error={errors["connection.keyPath"]}
            hint="A private key such as ~/.ssh/id_ed25519. Empty: your default keys and ssh-agent. A key with a passphrase must be in ssh-agent."
            autoCapitalize="off"
            spellCheck={false}
          />
        </div>
      )}
      <TextField
        id={f("dir")}
        label="Worker directory"
        value={v.workerDir}
        onChange={(e) => set({ workerDir: e.target.value })}
        error={errors.workerDir}
        hint={`On the server: the worker, its jobs and their files live here. Letters, digits and / . _ - + ~ only; the default is ${DEFAULT_WORKER_DIR}.`}
        autoCapitalize="off"
        spellCheck={false}
      />
      <TextField
        id={f("node")}
        label="Path of Node (optional)"
        value={v.nodePath}
        onChange={(e) => set({ nodePath: e.target.value })}
        error={errors.nodePath}
        hint="Empty: node from the PATH. Node installed by nvm etc. is often not on the PATH of SSH commands; then give its full path on the server."
        autoCapitalize="off"
        spellCheck={false}
      />
      {save.error && <ErrorMessage>{allPlaced ? "Some fields need a change: see the messages next to them." : errorText(save.error)}</ErrorMessage>}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : target ? "Save changes" : "Add this server"}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
