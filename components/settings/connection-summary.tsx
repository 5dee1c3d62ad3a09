import type { TConnectionView } from "@/server/targets/targets.schema";

/** How an SSH computer is reached, in words (no secrets are stored, so none show). */
export function ConnectionSummary({ connection: c }: { connection: TConnectionView }) {
  return (
    <dl className="grid gap-2 text-sm sm:grid-cols-2">
      <div className="min-w-0">
        <dt className="text-xs font-medium tracking-wide text-slate-600">Reached as</dt>
        <dd className="break-all">
          <code>
            {c.user}@{c.host}:{c.port}
          </code>
          {c.alias && <> (alias {c.alias} from ~/.ssh/config)</>}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-xs font-medium tracking-wide text-slate-600">Key</dt>
        <dd className="break-all">{c.keyFiles.length ? c.keyFiles.join(", ") : "default keys and ssh-agent"}</dd>
      </div>
      <div className="min-w-0">
        <dt className="text-xs font-medium tracking-wide text-slate-600">Worker directory</dt>
        <dd className="break-all">
          <code>{c.workerDir}</code>
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-xs font-medium tracking-wide text-slate-600">Node</dt>
        <dd className="break-all">{c.nodePath ? <code>{c.nodePath}</code> : "node from the PATH"}</dd>
      </div>
    </dl>
  );
}
