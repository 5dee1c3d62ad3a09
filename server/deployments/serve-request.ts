/**
 * One request on a deployment's public routes: health, and predict (rows checked against
 * the release's feature schema, capped, then answered by the serving path of its mode);
 * generate and stream are serve-generate.ts.
 * Every answered or refused predict counts in the release's aggregates; nothing of the
 * request itself is kept.
 */
import { ZDeploymentMode, ZServePrediction, ZServingLimits, type DeploymentHealth, type DeploymentPredictResponse, type ServingKind } from "@/contracts/deployments/serving";
import type { Db } from "@/server/db/client";
import { DomainError, isDomainError, unavailable } from "@/server/errors";
import { predictAndForget } from "@/server/predictions/predict-and-forget";
import { requireVerifiedExport } from "@/server/predictions/predict-job";
import { servingOfVersion } from "@/server/registry/version-serving";
import { TRY_ROW_TIMEOUT_MS } from "@/server/predictions/predictions.schema";
import { csvLine } from "@/server/tables/csv";
import { recordRequest } from "./deployment-stats";
import { findDeployment, releaseView, servedRoutes } from "./deployment-views";
import { isDeploymentState, type ReleaseView } from "./deployments.schema";
import { checkRows, type Row } from "./predict-rows";
import { kindOfVersionRow } from "./release-kind";
import { clientFor } from "./resident-serving";
import type { Refused } from "./serving-client";
import { linkRefusal, noteAnswered, noteFailure, probeLink } from "./serving-link";
import { moveDeployment, stateDataOf } from "./deployment-store";
import { startUp } from "./serving-runner";
import { downtimeRefusal } from "./switch-room";
import { deploymentsRepository } from "./deployments.repository";
import { unlessUnreachable } from "@/server/targets/unreachable";

export const SERVING_LIMITS = ZServingLimits.parse({});

export const short = (r: ReleaseView) => ({ id: r.id, number: r.number, version: r.version });

export async function current(db: Db, id: string) {
  const d = await findDeployment(db, id);
  const row = d.currentReleaseId ? await deploymentsRepository(db).release(d.currentReleaseId) : null;
  return { d, release: row ? await releaseView(db, row) : null };
}

/** How long a request waits for a woken deployment to load before it is answered 503. */
const WAKE_WAIT_MS = 120_000;

/**
 * The deployment and release a request goes to, after waking it when idle (its process
 * unloaded after its idle time): the request, and any that come while it loads, wait for
 * the load (bounded by WAKE_WAIT_MS) instead of being refused. Throws what the route
 * answers when it does not answer requests now (503 not_ready, or switching during a
 * switch that unloaded the current release first), counted against the current release.
 */
export async function servingNow(db: Db, id: string): Promise<{ d: Awaited<ReturnType<typeof current>>["d"]; release: ReleaseView }> {
  const started = Date.now();
  let now = await current(db, id);
  if (now.d.state === "idle") {
    // Of requests that arrive together, one moves it (the others find it loading) and starts the load.
    const reason = `woken by a request after its idle unload: loading release ${now.release?.number ?? "?"} again`;
    const woke = await moveDeployment(db, id, "loading", { reason, data: { cause: "wake" }, onlyFrom: "idle" });
    if (woke.changed) await startUp(db, id);
    now = await current(db, id);
  }
  const until = Date.now() + WAKE_WAIT_MS;
  // Requests wait for a load a request started (not one the owner or a restart started).
  while (stateDataOf(now.d, "loading")?.cause === "wake" && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    now = await current(db, id);
  }
  const { d, release } = now;
  const downtime = downtimeRefusal(d.name, d.reason, stateDataOf(d, "switching"));
  if (!answersRequests(d.state) || !release || downtime) {
    const refused = downtime ?? notReady(d.name, d.state, d.reason);
    // A release that cannot answer (failed, restarting, stopped) is a failure of that release: it counts in its figures and its monitor's window.
    if (release) await recordRequest(db, { releaseId: release.id, deploymentId: d.id, ms: Date.now() - started, errorClass: refused.reason });
    throw refused;
  }
  return { d, release };
}

/**
 * The route's answer, typed by its contract (ZDeploymentHealth, which openapi.json documents).
 * A resident deployment whose computer a request could not reach says `unreachable` with
 * why (serving-link.ts) while it would otherwise say ready or switching.
 */
export async function health(db: Db, id: string): Promise<DeploymentHealth> {
  const { d, release } = await current(db, id);
  const since = d.state === "ready" ? await deploymentsRepository(db).lastReadyEvent(id) : null;
  if (!isDeploymentState(d.state)) throw new Error(`deployment ${d.id} has an unknown state "${d.state}"`);
  const cut = answersRequests(d.state) ? linkRefusal(d.id) : null;
  if (cut) {
    probeLink(db, d.id);
    return { state: "unreachable", reason: cut.message, mode: ZDeploymentMode.parse(d.mode), release: release ? short(release) : null, uptimeSeconds: null, serving: null };
  }
  return {
    state: d.state,
    reason: d.reason,
    mode: ZDeploymentMode.parse(d.mode),
    release: release ? short(release) : null,
    uptimeSeconds: since ? Math.max(0, Math.round((Date.now() - since.at.getTime()) / 1000)) : null,
    serving: d.mode === "resident" && d.state === "ready" && release ? await servingLoad(db, release.id) : null,
  };
}

/** The serving process's own count; null when it does not answer at once (health never waits on it). */
async function servingLoad(db: Db, releaseId: string): Promise<DeploymentHealth["serving"]> {
  const h = await unlessUnreachable(
    clientFor(db, releaseId).then((c) => c.health({ timeoutMs: 1000 })),
    () => null,
  );
  return h?.ok ? { inFlight: h.value.inFlight, queued: h.value.queued } : null;
}

function toCsv(names: string[], rows: Row[]): string {
  return [csvLine(names), ...rows.map((r) => csvLine(names.map((n) => r[n] ?? "")))].join("\n") + "\n";
}

/**
 * The release's feature schema, from its version's own serving record (never the
 * experiment, which may be gone), read without hashing its export: the archive is verified
 * where it is used (the on-demand predict below, the serving process when it loads), not
 * again on every request of a resident release.
 */
async function featuresOf(db: Db, version: { id: string; number: number }) {
  return (await servingOfVersion(db, version)).featureSchema?.features ?? [];
}

async function predictOnDemand(db: Db, targetId: string, version: { number: number; modelSha256: string; exportSha256: string }, names: string[], rows: Row[]) {
  await requireVerifiedExport(version.exportSha256, `Version ${version.number}'s model`);
  // Nothing of a request is kept: the job's rows and predictions go once they are read.
  const csv = Buffer.from(toCsv(names, rows), "utf8");
  const out = await predictAndForget(db, { targetId, modelSha256: version.modelSha256, csv, timeoutMs: TRY_ROW_TIMEOUT_MS, label: "The prediction" });
  return out.rows.map((r) => {
    // The job's parquet is read untyped; a value the contract does not allow is the job's fault (500), not the caller's.
    const p = ZServePrediction.safeParse(out.classes.length ? { prediction: r.prediction, probabilities: r.probabilities } : { prediction: r.prediction });
    if (!p.success) throw new Error(`the predict job answered row ${r.rowId} with a prediction outside the contract: ${p.error.message.slice(0, 200)}`);
    return p.data;
  });
}

/** A refusal of the serving process, as the same domain error the route answers (its Retry-After kept). */
export function servingRefusal({ status, error, retryAfterSeconds }: Refused): DomainError {
  const code = status === 429 ? "TOO_MANY_REQUESTS" : status >= 500 ? "UNAVAILABLE" : "BAD_INPUT";
  return new DomainError(code, error.message, { code: error.code, ...(error.fields ? { fields: error.fields } : {}), ...(retryAfterSeconds ? { retryAfterSeconds } : {}) });
}

async function askRelease(db: Db, deploymentId: string, releaseId: string, rows: Row[]) {
  const answer = await (await clientFor(db, releaseId)).predict({ rows }).catch((err: unknown) => {
    const noted = noteFailure(deploymentId, releaseId, err as Error);
    throw isDomainError(noted) ? noted : unavailable(`The serving process did not answer: ${(err as Error).message}`);
  });
  noteAnswered(deploymentId);
  if (!answer.ok) throw servingRefusal(answer);
  return answer.value.predictions;
}

/**
 * A switch makes the candidate current and then stops the old process: a request that read
 * the old release just before may find its process gone. It is asked once more of the
 * release now current (a prediction has no side effect), and answers with that release.
 */
async function predictResident(db: Db, deploymentId: string, release: ReleaseView, rows: Row[]) {
  const cut = linkRefusal(deploymentId);
  if (cut) throw cut;
  try {
    return { predictions: await askRelease(db, deploymentId, release.id, rows), release };
  } catch (err) {
    const now = (await current(db, deploymentId)).release;
    if (!now || now.id === release.id) throw err;
    return { predictions: await askRelease(db, deploymentId, now.id, rows), release: now };
  }
}

export async function predict(db: Db, id: string, body: unknown): Promise<DeploymentPredictResponse> {
  const started = Date.now();
  const { d, release } = await servingNow(db, id);
  let rows: Row[] | null = null;
  try {
    const version = await deploymentsRepository(db).versionOrThrow(release.versionId);
    if (kindOfVersionRow(version) === "llm") throw wrongRoute(d.id, "llm");
    const features = await featuresOf(db, version);
    if (!features.length) throw unavailable(`Version ${release.version} has no feature schema, so it cannot answer predictions.`);
    rows = checkRows(body, features, SERVING_LIMITS);
    const answered =
      d.mode === "on_demand"
        ? { predictions: await predictOnDemand(db, d.targetId, version, features.map((f) => f.name), rows), release }
        : await predictResident(db, d.id, release, rows);
    await recordRequest(db, { releaseId: answered.release.id, deploymentId: d.id, ms: Date.now() - started }, new Date(), rows);
    return { predictions: answered.predictions, release: short(answered.release) };
  } catch (err) {
    await recordRequest(db, { releaseId: release.id, deploymentId: d.id, ms: Date.now() - started, errorClass: isDomainError(err) ? err.reason : "internal" }, new Date(), rows);
    throw err;
  }
}

/**
 * Whether the deployment answers requests now: ready, or switching (its current release
 * keeps serving until the candidate answers ready, so a switch loses no request).
 */
export const answersRequests = (state: string) => state === "ready" || state === "switching";

export function notReady(name: string, state: string, reason: string | null) {
  return new DomainError("UNAVAILABLE", `The deployment "${name}" is ${state}${reason ? ` (${reason})` : ""}; it answers requests only when ready.`, { code: "not_ready", state });
}

/** 404 on the route of the other kind, naming the route(s) this deployment does answer. */
export function wrongRoute(id: string, kind: ServingKind): DomainError {
  const routes = servedRoutes(id, kind);
  const message =
    kind === "llm"
      ? `This deployment serves a language model (a LoRA fine-tune): POST ${routes.generate} (or ${routes.stream} for Server-Sent Events), not /predict.`
      : `This deployment serves a tabular model: POST ${routes.predict} with {"rows": [...]}, not /generate or /stream.`;
  return new DomainError("NOT_FOUND", message, { code: "wrong_kind", use: kind === "llm" ? [routes.generate, routes.stream] : [routes.predict] });
}
