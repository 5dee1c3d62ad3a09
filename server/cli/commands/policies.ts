/**
 * `trainyard policies set|show|approve|reject` (issue 32) against the running server:
 *   set MODEL --mode approval|automatic [--deployment NAME] [--bake-requests N] [--bake-minutes N] --json
 *   show MODEL --json → the policy with "pending": [{"id", "version", "evidence"}, …] and "bake" (the promotion under way, or null)
 *   approve|reject MODEL CANDIDATE_ID [--reason R] --json
 */
import { CliError } from "../cli-error";
import { countFlag, positiveFlag } from "../flag-numbers";
import { connect, withRetry } from "../api-client";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { findDeployment } from "./deploy";
import { findModel, refusalsKept } from "./models";

export const USAGE = `Usage:
  trainyard policies set MODEL --mode approval|automatic [--deployment NAME] [--bake-requests N] [--bake-minutes N]
      [--bake-deadline-hours N] [--bake-low-traffic keep|revert] [--max-export-mib N] [--max-latency-ms N] [--approval-hours N] [--max-per-day N] [--cooldown-minutes N] [--project NAME] [--json]
  trainyard policies show MODEL [--project NAME] [--json]
  trainyard policies approve MODEL CANDIDATE_ID [--reason TEXT] [--json]
  trainyard policies reject MODEL CANDIDATE_ID [--reason TEXT] [--json]
A policy judges each new version of MODEL by hard gates (the same evaluation with a real
gain over the version in use, or a holdout win whose interval excludes a loss). In approval
mode you approve or reject each one that passes; in automatic mode it is promoted at once,
at most --max-per-day a day and --cooldown-minutes apart. A deployment that follows the
model's "selected" alias switches with each promotion, and then bakes: the promotion stands
after at least --bake-requests requests (default 20) and --bake-minutes minutes (default 15)
within the health limits of the deployment's monitor policy; a breach puts the selected
version and the deployment back on the version before. With fewer requests than asked
within --bake-deadline-hours (default 24), --bake-low-traffic keeps (default) or reverts it.
--max-export-mib refuses a version whose export is larger, however good it is;
--max-latency-ms one whose single-row predictions, timed when it was tested, have a p95
over N milliseconds (a version with no such measurement, a fine-tune or one trained before
it was measured, is refused too).`;

const need = requiredArg(USAGE);

/** The options given on the command line (the server's defaults stand for the rest). */
function given<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
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
    "bake-deadline-hours": { type: "string" },
    "bake-low-traffic": { type: "string" },
    "max-export-mib": { type: "string" },
    "max-latency-ms": { type: "string" },
    reason: { type: "string" },
  });
  const print = (value: unknown, text: () => string) => console.log(values.json ? JSON.stringify(value, null, 2) : text());
  if (!["set", "show", "approve", "reject"].includes(sub ?? "")) throw new CliError(USAGE, 2);
  const modelRef = need(positionals[0], "MODEL");
  if (sub === "set") {
    const mode = need(values.mode, "--mode approval|automatic");
    if (mode !== "approval" && mode !== "automatic") throw new CliError(`--mode is approval or automatic (got ${mode}).\n${USAGE}`, 2);
    const lowTraffic = values["bake-low-traffic"];
    if (lowTraffic !== undefined && lowTraffic !== "keep" && lowTraffic !== "revert") throw new CliError(`--bake-low-traffic is keep or revert (got ${lowTraffic}).\n${USAGE}`, 2);
    const numbers = {
      approvalHours: countFlag(values["approval-hours"], "--approval-hours", USAGE),
      maxPerDay: countFlag(values["max-per-day"], "--max-per-day", USAGE),
      cooldownMinutes: countFlag(values["cooldown-minutes"], "--cooldown-minutes", USAGE),
      bakeRequests: countFlag(values["bake-requests"], "--bake-requests", USAGE),
      bakeMinutes: countFlag(values["bake-minutes"], "--bake-minutes", USAGE),
      bakeDeadlineHours: countFlag(values["bake-deadline-hours"], "--bake-deadline-hours", USAGE),
      maxExportMib: positiveFlag(values["max-export-mib"], "--max-export-mib", USAGE),
      maxLatencyMs: positiveFlag(values["max-latency-ms"], "--max-latency-ms", USAGE),
    };
    const conn = connect();
    const model = await findModel(conn, values.project, modelRef);
    const deploymentId = values.deployment ? (await findDeployment(conn, values.project, values.deployment)).id : null;
    const p = await refusalsKept(() =>
      withRetry(() =>
        conn.api.policies.set.mutate({
          modelId: model.id,
          mode,
          deploymentId,
          ...given({ ...numbers, bakeLowTraffic: lowTraffic }),
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
        `"${p.modelName}": ${p.mode} promotion${p.deployment ? `, deployment "${p.deployment.name}" follows it and bakes each promotion (${p.bakeRequests} requests, ${p.bakeMinutes} min)` : ""}.`,
        ...(p.bake
          ? [
              `under way: version ${p.bake.version} ${p.bake.state} on "${p.bake.deployment.name}": ${p.bake.requests.seen} of ${p.bake.requests.needed} requests (${p.bake.failures} failed), ${p.bake.minutes.elapsed} of ${p.bake.minutes.needed} min; back to version ${p.bake.incumbentVersion} on a breach`,
            ]
          : []),
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
