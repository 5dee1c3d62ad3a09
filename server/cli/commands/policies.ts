/**
 * `trainyard policies set|show|approve|reject` (issue 32) against the running server:
 *   set MODEL --mode approval|automatic [--deployment NAME] --json
 *   show MODEL --json → the policy with "pending": [{"id", "version", "evidence"}, …] and "bake" (null: not built yet)
 *   approve|reject MODEL CANDIDATE_ID [--reason R] --json
 */
import { CliError } from "../cli-error";
import { connect, withRetry } from "../api-client";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { findDeployment } from "./deploy";
import { findModel, refusalsKept } from "./models";

export const USAGE = `Usage:
  trainyard policies set MODEL --mode approval|automatic [--deployment NAME] [--approval-hours N] [--max-per-day N] [--cooldown-minutes N] [--project NAME] [--json]
  trainyard policies show MODEL [--project NAME] [--json]
  trainyard policies approve MODEL CANDIDATE_ID [--reason TEXT] [--json]
  trainyard policies reject MODEL CANDIDATE_ID [--reason TEXT] [--json]
A policy judges each new version of MODEL by hard gates (the same evaluation with a real
gain over the version in use, or a holdout win whose interval excludes a loss). In approval
mode you approve or reject each one that passes; in automatic mode it is promoted at once,
at most --max-per-day a day and --cooldown-minutes apart. A deployment that follows the
model's "selected" alias switches with each promotion. The bake after a switch
(--bake-requests, --bake-minutes) is not built yet.`;

const need = requiredArg(USAGE);

function whole(text: string | undefined, what: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new CliError(`${what} takes a whole number (got ${text}).\n${USAGE}`, 2);
  return Number(text);
}

export async function policiesCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    mode: { type: "string" },
    deployment: { type: "string" },
    "approval-hours": { type: "string" },
    "max-per-day": { type: "string" },
    "cooldown-minutes": { type: "string" },
    "bake-requests": { type: "string" },
    "bake-minutes": { type: "string" },
    reason: { type: "string" },
  });
  const print = (value: unknown, text: () => string) => console.log(values.json ? JSON.stringify(value, null, 2) : text());
  if (!["set", "show", "approve", "reject"].includes(sub ?? "")) throw new CliError(USAGE, 2);
  const modelRef = need(positionals[0], "MODEL");
  if (sub === "set") {
    const mode = need(values.mode, "--mode approval|automatic");
    if (mode !== "approval" && mode !== "automatic") throw new CliError(`--mode is approval or automatic (got ${mode}).\n${USAGE}`, 2);
    if (values["bake-requests"] !== undefined || values["bake-minutes"] !== undefined) {
      throw new CliError("The bake after a switch (--bake-requests, --bake-minutes) is not built yet; set the policy without them.", 2, "not_built");
    }
    const approvalHours = whole(values["approval-hours"], "--approval-hours");
    const maxPerDay = whole(values["max-per-day"], "--max-per-day");
    const cooldownMinutes = whole(values["cooldown-minutes"], "--cooldown-minutes");
    const conn = connect();
    const model = await findModel(conn, values.project, modelRef);
    const deploymentId = values.deployment ? (await findDeployment(conn, values.project, values.deployment)).id : null;
    const p = await refusalsKept(() =>
      withRetry(() =>
        conn.api.policies.set.mutate({
          modelId: model.id,
          mode,
          deploymentId,
          ...(approvalHours !== undefined ? { approvalHours } : {}),
          ...(maxPerDay !== undefined ? { maxPerDay } : {}),
          ...(cooldownMinutes !== undefined ? { cooldownMinutes } : {}),
        }),
      ),
    );
    print(p, () => `"${p.modelName}": ${p.mode} promotion policy (revision ${p.revision}); versions registered from now on are judged.`);
    return 0;
  }
  const conn = connect();
  const model = await findModel(conn, values.project, modelRef);
  if (sub === "show") {
    const p = await refusalsKept(() => withRetry(() => conn.api.policies.show.query({ modelId: model.id })));
    print(p, () =>
      [
        `"${p.modelName}": ${p.mode} promotion${p.deployment ? `, deployment "${p.deployment.name}" follows it` : ""}.`,
        ...(p.pending.length ? p.pending.map((c) => `waiting: ${c.id}  version ${c.version}  ${c.evidence.words}`) : ["Nothing waits for a decision."]),
        ...p.candidates.filter((c) => c.state !== "pending").map((c) => `${c.state}: version ${c.version}  ${c.reason ?? ""}`),
      ].join("\n"),
    );
    return 0;
  }
  const candidateId = need(positionals[1], "CANDIDATE_ID");
  const decide = sub === "approve" ? conn.api.policies.approve : conn.api.policies.reject;
  const p = await refusalsKept(() => decide.mutate({ modelId: model.id, candidateId, ...(values.reason ? { reason: values.reason } : {}) }));
  const c = p.candidates.find((x) => x.id === candidateId);
  print(p, () => `Candidate ${candidateId} (version ${c?.version ?? "?"}): ${c?.state ?? "?"}${c?.reason ? ` — ${c.reason}` : ""}.`);
  return 0;
}
