/** `trainyard models list|show|register|promote|rollback|history|compare|retention|remove` against the running server. */
import { TRPCClientError } from "@trpc/client";
import { CliError } from "../cli-error";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { connect, withRetry, type Connection } from "../api-client";
import { projectId } from "./experiments";
import { eventLine, modelLine, moveJson, retentionLines, versionLine, type ModelOut } from "./models-format";

export const USAGE = `Usage:
  trainyard models list [--project NAME] [--json]
  trainyard models show MODEL [--project NAME] [--json]
  trainyard models register --experiment ID --model NAME [--json]
  trainyard models promote MODEL VERSION [--reason TEXT] [--accept-regression] [--expected-revision N] [--alias NAME] [--json]
  trainyard models rollback MODEL [--to VERSION] [--reason TEXT] [--expected-revision N] [--json]
  trainyard models history MODEL [--json]
  trainyard models compare MODEL VERSION VERSION [--json]
  trainyard models retention [--project NAME] [--json]
  trainyard models remove MODEL VERSION --reason TEXT [--json]
MODEL is a model's name (any case) or id. --alias moves another alias than "selected"
(e.g. staging). remove takes a version out of the registry (no alias may point at it);
its history stays.`;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function findModel(conn: Connection, project: string, ref: string): Promise<ModelOut> {
  const models = await withRetry(async () => conn.api.models.list.query({ projectId: await projectId(conn, project) }));
  const m = models.find((x) => x.id === ref) ?? models.find((x) => sameName(x.name, ref));
  if (!m) throw new CliError(`No model "${ref}" in project "${project}" (have: ${models.map((x) => x.name).join(", ") || "none"}).`, 1, "not_found");
  return m;
}

/** The project of an experiment of either kind: experiments.get refuses a fine-tune, finetune.get answers NOT_FOUND for a tabular one. */
async function experimentProject(conn: Connection, id: string): Promise<string> {
  try {
    return (await withRetry(() => conn.api.finetune.get.query({ id }))).experiment.projectId;
  } catch (err) {
    if (!(err instanceof CliError && err.code === "not_found")) throw err;
  }
  return (await withRetry(() => conn.api.experiments.get.query({ id }))).projectId;
}

function number(text: string | undefined, what: string): number {
  if (!text || !/^[1-9]\d*$/.test(text)) throw new CliError(`${what} must be a whole number ≥ 1 (got ${text ?? "nothing"}).\n${USAGE}`, 2);
  return Number(text);
}

/** A server refusal keeps its precise reason (stale_revision, needs_acknowledgement…) as the CLI code. */
export async function refusalsKept<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const code = err instanceof TRPCClientError ? (err.data as { details?: { code?: unknown } } | undefined)?.details?.code : undefined;
    if (typeof code === "string") throw new CliError(err instanceof Error ? err.message : String(err), 1, code);
    throw err;
  }
}

const print = (json: boolean, value: unknown, text: () => string) => console.log(json ? JSON.stringify(value, null, 2) : text());

export async function modelsCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    experiment: { type: "string" },
    model: { type: "string" },
    reason: { type: "string" },
    to: { type: "string" },
    "accept-regression": { type: "boolean", default: false },
    "expected-revision": { type: "string" },
    alias: { type: "string" },
  });
  const conn = connect();
  const json = values.json ?? false;
  const project = values.project!;
  const need = requiredArg(USAGE);
  const expectedRevision = values["expected-revision"] === undefined ? undefined : number(values["expected-revision"], "--expected-revision");
  switch (sub) {
    case "list": {
      const models = await withRetry(async () => conn.api.models.list.query({ projectId: await projectId(conn, project) }));
      print(json, models, () => (models.length ? models.map(modelLine).join("\n") : `No models in "${project}".`));
      return 0;
    }
    case "show": {
      const m = await findModel(conn, project, need(positionals[0], "MODEL"));
      const shown = await withRetry(() => conn.api.models.show.query({ modelId: m.id }));
      print(json, { ...shown.model, versions: shown.versions, history: shown.history }, () =>
        [modelLine(shown.model), ...shown.versions.map(versionLine), ...(shown.history.length ? ["History:", ...shown.history.map(eventLine)] : [])].join("\n"),
      );
      return 0;
    }
    case "register": {
      const experimentId = need(values.experiment, "--experiment ID");
      const name = need(values.model, "--model NAME");
      const models = await withRetry(async () => conn.api.models.list.query({ projectId: await experimentProject(conn, experimentId) }));
      const existing = models.find((x) => x.id === name || sameName(x.name, name));
      // The experiment is the operation id, so a retried registration answers the same version.
      const r = await refusalsKept(() =>
        withRetry(() => conn.api.models.register.mutate(existing ? { experimentId, modelId: existing.id } : { experimentId, newModelName: name })),
      );
      print(json, { ...r.model, version: r.version, created: r.created, exportNote: r.exportNote }, () =>
        [`${r.created ? "Registered" : "Already registered as"} version ${r.version.number} of "${r.model.name}".`, ...(r.exportNote ? [r.exportNote] : [])].join("\n"),
      );
      return 0;
    }
    case "promote": {
      const m = await findModel(conn, project, need(positionals[0], "MODEL"));
      const version = number(positionals[1], "VERSION");
      const r = await refusalsKept(() =>
        conn.api.models.promote.mutate({
          modelId: m.id,
          version,
          reason: values.reason,
          acceptRegression: values["accept-regression"],
          expectedRevision: expectedRevision ?? m.revision,
          alias: values.alias,
        }),
      );
      const alias = values.alias ?? "selected";
      print(json, moveJson(r), () => (r.event ? `Version ${version} of "${r.model.name}" is ${alias} (revision ${r.model.revision}). ${r.decision.reason}` : r.decision.reason));
      return 0;
    }
    case "rollback": {
      const m = await findModel(conn, project, need(positionals[0], "MODEL"));
      const to = values.to === undefined ? undefined : number(values.to, "--to");
      const r = await refusalsKept(() => conn.api.models.rollback.mutate({ modelId: m.id, to, reason: values.reason, expectedRevision }));
      print(json, moveJson(r), () => `Rolled back "${r.model.name}" to version ${r.model.selected?.number} (revision ${r.model.revision}).`);
      return 0;
    }
    case "history": {
      const m = await findModel(conn, project, need(positionals[0], "MODEL"));
      const events = await withRetry(() => conn.api.models.history.query({ modelId: m.id }));
      print(json, events, () => (events.length ? events.map(eventLine).join("\n") : `"${m.name}" has never been promoted.`));
      return 0;
    }
    case "compare": {
      const m = await findModel(conn, project, need(positionals[0], "MODEL"));
      const a = number(positionals[1], "VERSION");
      const b = number(positionals[2], "VERSION");
      const c = await withRetry(() => conn.api.models.compare.query({ modelId: m.id, a, b }));
      print(json, c, () =>
        [
          `v${a} vs v${b}: ${c.comparability.reason}${c.improvement === null ? "" : ` Improvement of v${b} over v${a}: ${c.improvement.toPrecision(4)}.`}`,
          ...c.metrics.map((r) => `  ${r.key}: ${String(r.a)} | ${String(r.b)}`),
          ...[...c.data, ...c.settings, ...c.identity].filter((r) => !r.same).map((r) => `  differs ${r.key}: ${JSON.stringify(r.a)} | ${JSON.stringify(r.b)}`),
        ].join("\n"),
      );
      return 0;
    }
    case "retention": {
      const preview = await withRetry(async () => conn.api.models.retentionPreview.query({ projectId: await projectId(conn, project) }));
      print(json, preview, () => retentionLines(preview).join("\n"));
      return 0;
    }
    case "remove": {
      const m = await findModel(conn, project, need(positionals[0], "MODEL"));
      const version = number(positionals[1], "VERSION");
      const reason = need(values.reason, "--reason TEXT");
      const removed = await refusalsKept(() => conn.api.models.removeVersion.mutate({ modelId: m.id, version, reason }));
      print(json, removed, () => `Removed version ${removed.number} of "${m.name}" from the registry; its history stays.`);
      return 0;
    }
    default:
      throw new CliError(USAGE, 2);
  }
}
