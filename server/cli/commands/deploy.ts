/** `trainyard deploy MODEL[:VERSION|@ALIAS]` and `trainyard deployments list|show|switch|rollback|stop|resume|keys` against the running server. */
import { CliError } from "../cli-error";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { connect, withRetry, type Connection } from "../api-client";
import { projectId } from "./experiments";
import { refusalsKept } from "./models";
import { deploymentJson, deploymentLine, keyLine, type DeploymentOut } from "./deploy-format";

export const DEPLOY_USAGE = `Usage:
  trainyard deploy MODEL[:VERSION|@ALIAS] [--name N] [--mode resident|on-demand] [--computer NAME] [--memory-gb N] [--idle-unload-minutes N] [--project NAME] [--json]
MODEL is a model's name (any case) or id. MODEL:3 serves version 3 (pinned); MODEL@staging
follows the alias "staging"; MODEL alone follows "selected". --mode on-demand (the default
for a tabular model) runs a short predict job per request; a LoRA fine-tune is served
resident (its default; on demand is refused), on /generate and /stream. --memory-gb N
(resident only) is the serving process's memory budget: over it the process is stopped and
the deployment says why (default 2 GB for a tabular model, 4 GB for a fine-tune).
--idle-unload-minutes N (resident only) unloads the serving process after N minutes
without a request (the deployment is then idle and gives its memory back); the next
request loads it again and waits for it. Without it the process stays loaded.`;

export const USAGE = `Usage:
  trainyard deployments list [--project NAME] [--json]
  trainyard deployments show DEPLOYMENT [--json]
  trainyard deployments switch DEPLOYMENT VERSION --reason TEXT [--json]
  trainyard deployments rollback DEPLOYMENT [--to RELEASE] --reason TEXT [--json]
  trainyard deployments stop|resume DEPLOYMENT [--json]
  trainyard deployments keys create DEPLOYMENT [--name NAME] [--json]   (the key is shown only this once)
  trainyard deployments keys list DEPLOYMENT [--json]
  trainyard deployments keys revoke DEPLOYMENT KEY-ID|PREFIX [--json]
DEPLOYMENT is a deployment's name (any case) or id, in --project (default "Default").`;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const print = (json: boolean, value: unknown, text: () => string) => console.log(json ? JSON.stringify(value, null, 2) : text());

function number(text: string | undefined, what: string, usage: string): number {
  if (!text || !/^[1-9]\d*$/.test(text)) throw new CliError(`${what} must be a whole number ≥ 1 (got ${text ?? "nothing"}).\n${usage}`, 2);
  return Number(text);
}

/** `name:3` → version 3; `name@staging` → alias; `name` → alias "selected". */
export function parseModelRef(ref: string): { model: string; what: { version: number } | { alias: string } } {
  const m = /^(.+?)(?::([1-9]\d*)|@([a-z][a-z0-9_-]*))?$/.exec(ref.trim());
  if (!m?.[1]) throw new CliError(`"${ref}" is not MODEL, MODEL:VERSION or MODEL@ALIAS.\n${DEPLOY_USAGE}`, 2);
  return { model: m[1], what: m[2] ? { version: Number(m[2]) } : { alias: m[3] ?? "selected" } };
}

export async function findDeployment(conn: Connection, project: string, ref: string): Promise<DeploymentOut> {
  const all = await withRetry(async () => conn.api.deployments.list.query({ projectId: await projectId(conn, project) }));
  const d = all.find((x) => x.id === ref) ?? all.find((x) => sameName(x.name, ref));
  if (!d) throw new CliError(`No deployment "${ref}" in project "${project}" (have: ${all.map((x) => x.name).join(", ") || "none"}).`, 1, "not_found");
  return d;
}

export async function deployCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseSubcommand(["deploy", ...argv], {
    name: { type: "string" },
    mode: { type: "string" },
    computer: { type: "string" },
    "memory-gb": { type: "string" },
    "idle-unload-minutes": { type: "string" },
  });
  const ref = positionals[0];
  const memoryGb = values["memory-gb"] === undefined ? undefined : Number(values["memory-gb"]);
  if (memoryGb !== undefined && !(Number.isFinite(memoryGb) && memoryGb > 0)) throw new CliError(`--memory-gb is a number of GB above 0, like 1.5 (got ${values["memory-gb"]}).\n${DEPLOY_USAGE}`, 2);
  const idle = values["idle-unload-minutes"];
  const idleUnloadMinutes = idle === undefined ? undefined : Number(idle);
  if (idleUnloadMinutes !== undefined && !(Number.isFinite(idleUnloadMinutes) && idleUnloadMinutes > 0)) throw new CliError(`--idle-unload-minutes is a number of minutes above 0, like 15 or 0.5 (got ${idle}).\n${DEPLOY_USAGE}`, 2);
  if (!ref || positionals.length > 1) throw new CliError(DEPLOY_USAGE, 2);
  if (values.mode !== undefined && values.mode !== "resident" && values.mode !== "on-demand") throw new CliError(`--mode is resident or on-demand (got ${values.mode}).\n${DEPLOY_USAGE}`, 2);
  const conn = connect();
  const { model, what } = parseModelRef(ref);
  const pid = await projectId(conn, values.project!);
  const models = await withRetry(() => conn.api.models.list.query({ projectId: pid }));
  const found = models.find((x) => x.id === model) ?? models.find((x) => sameName(x.name, model));
  if (!found) throw new CliError(`No model "${model}" in project "${values.project}" (have: ${models.map((x) => x.name).join(", ") || "none"}).`, 1, "not_found");
  const d = await refusalsKept(() =>
    conn.api.deployments.create.mutate({ modelId: found.id, what, name: values.name, mode: values.mode === undefined ? undefined : values.mode === "resident" ? "resident" : "on_demand", computer: values.computer, memoryGb, idleUnloadMinutes }),
  );
  const out = deploymentJson(d, conn.url);
  const routes = Object.entries(out.urls).map(([name, url]) => `  ${`${name}:`.padEnd(9)} ${name === "health" ? "GET " : "POST"} ${url}`);
  print(values.json ?? false, out, () => `Deployed "${d.name}" (${d.state}${d.reason ? `: ${d.reason}` : ""}).\n${routes.join("\n")}\nCreate a key: trainyard deployments keys create ${JSON.stringify(d.name)}`);
  return 0;
}

async function keysCommand(conn: Connection, project: string, json: boolean, argv: string[], keyName: string | undefined): Promise<number> {
  const [verb, ref, keyRef] = argv;
  if (!verb || !ref) throw new CliError(USAGE, 2);
  const d = await findDeployment(conn, project, ref);
  switch (verb) {
    case "create": {
      const k = await refusalsKept(() => conn.api.deployments.createKey.mutate({ deploymentId: d.id, name: keyName ?? "key" }));
      print(json, { id: k.id, key: k.key }, () => `Key ${k.id} for "${d.name}" (shown only this once):\n${k.key}`);
      return 0;
    }
    case "list": {
      const keys = await withRetry(() => conn.api.deployments.listKeys.query({ deploymentId: d.id }));
      print(json, keys, () => (keys.length ? keys.map(keyLine).join("\n") : `"${d.name}" has no keys.`));
      return 0;
    }
    case "revoke": {
      if (!keyRef) throw new CliError(`Missing KEY-ID|PREFIX.\n${USAGE}`, 2);
      await refusalsKept(() => conn.api.deployments.revokeKey.mutate({ deploymentId: d.id, keyId: keyRef }));
      print(json, { revoked: keyRef }, () => `Revoked key ${keyRef} of "${d.name}".`);
      return 0;
    }
    default:
      throw new CliError(USAGE, 2);
  }
}

export async function deploymentsCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    reason: { type: "string" },
    to: { type: "string" },
    name: { type: "string" },
  });
  const conn = connect();
  const json = values.json ?? false;
  const project = values.project!;
  const need = requiredArg(USAGE);
  const show = (d: DeploymentOut) => print(json, deploymentJson(d, conn.url), () => deploymentLine(d));
  switch (sub) {
    case "list": {
      const all = await withRetry(async () => conn.api.deployments.list.query({ projectId: await projectId(conn, project) }));
      print(json, all.map((d) => deploymentJson(d, conn.url)), () => (all.length ? all.map(deploymentLine).join("\n") : `No deployments in "${project}".`));
      return 0;
    }
    case "show": {
      const d = await findDeployment(conn, project, need(positionals[0], "DEPLOYMENT"));
      const s = await withRetry(() => conn.api.deployments.show.query({ deploymentId: d.id }));
      print(json, { ...deploymentJson(s.deployment, conn.url), releases: s.releases, keys: s.keys, stats: s.stats }, () =>
        [
          deploymentLine(s.deployment),
          "Releases:",
          ...s.releases.map((r) => `  ${r.number}  v${r.version}  ${r.kind}  ${new Date(r.createdAt).toISOString()}  by ${r.actor.kind} ${r.actor.name}  — ${r.why}`),
          ...(s.keys.length ? ["Keys:", ...s.keys.map((k) => `  ${keyLine(k)}`)] : []),
        ].join("\n"),
      );
      return 0;
    }
    case "switch": {
      const d = await findDeployment(conn, project, need(positionals[0], "DEPLOYMENT"));
      const version = number(positionals[1], "VERSION", USAGE);
      show(await refusalsKept(() => conn.api.deployments.switch.mutate({ deploymentId: d.id, expectedRevision: d.revision, version, why: need(values.reason, "--reason TEXT") })));
      return 0;
    }
    case "rollback": {
      const d = await findDeployment(conn, project, need(positionals[0], "DEPLOYMENT"));
      const toRelease = values.to === undefined ? undefined : number(values.to, "--to", USAGE);
      show(await refusalsKept(() => conn.api.deployments.rollback.mutate({ deploymentId: d.id, expectedRevision: d.revision, why: need(values.reason, "--reason TEXT"), toRelease })));
      return 0;
    }
    case "stop":
    case "resume": {
      const d = await findDeployment(conn, project, need(positionals[0], "DEPLOYMENT"));
      const input = { deploymentId: d.id, expectedRevision: d.revision };
      show(await refusalsKept(() => (sub === "stop" ? conn.api.deployments.stop.mutate(input) : conn.api.deployments.resume.mutate(input))));
      return 0;
    }
    case "keys":
      return keysCommand(conn, project, json, positionals, values.name);
    default:
      throw new CliError(USAGE, 2);
  }
}
