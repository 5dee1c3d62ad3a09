/**
 * What a switch or a rollback of a deployment would change, in the words its confirmation
 * shows (and the e2e reads), decided on the view and the releases the person saw. The
 * rollback target is the server's own default (deployment-actions.ts rollbackTo): the
 * latest earlier release whose version differs from the current one.
 */
import type { Version } from "@/components/registry/registry-types";
import type { Deployment, Release } from "./deployment-types";

/** Only the number and version of the release it serves are read. */
type Served = { release: Pick<Release, "number" | "version"> | null };

export const releaseWords = (d: Served) => (d.release ? `release ${d.release.number} (version ${d.release.version})` : "no release");

/** Whether a rollback may return to `r`: an earlier release of another version than the current one. */
export function isRollbackTarget(r: Pick<Release, "number" | "version">, d: Served): boolean {
  return !!d.release && r.number < d.release.number && r.version !== d.release.version;
}

/** The release a plain Roll back returns to; null when there is none (then it is not offered). */
export function rollbackTarget<R extends Pick<Release, "number" | "version">>(releases: readonly R[], d: Served): R | null {
  return releases.filter((r) => isRollbackTarget(r, d)).sort((a, b) => b.number - a.number)[0] ?? null;
}

/** The number the next release gets (the history is append-only, numbered from 1). */
export const nextReleaseNumber = (releases: readonly Pick<Release, "number">[]) => Math.max(0, ...releases.map((r) => r.number)) + 1;

/**
 * The versions a switch may pick: the model's other registered versions of the kind the
 * deployment serves (its routes never change kind), newest first as models.show gives them.
 */
export function switchableVersions<V extends Pick<Version, "number" | "status"> & { identity: Pick<Version["identity"], "recipe"> }>(versions: readonly V[], d: Served & Pick<Deployment, "kind">): V[] {
  const kindOf = (v: V) => (v.identity.recipe === "tabular" ? "tabular" : "llm");
  return versions.filter((v) => v.status === "registered" && v.number !== d.release?.version && kindOf(v) === d.kind);
}

const durationWords = (minutes: number) => (minutes < 1 ? `${Math.round(minutes * 60)} s` : `${Math.round(minutes * 10) / 10} min`);

/** A resident deployment's idle unload in words; null when it never unloads (and on demand). */
export function idleWords(minutes: number | null): string | null {
  return minutes === null ? null : `Unloads after ${durationWords(minutes)} without a request; the next request loads it again and waits for the load.`;
}

/** The change itself: from what it serves now to the version it would serve, as which release. */
export function changeWords(d: Served & Pick<Deployment, "name">, to: { version: number; backTo?: number }, next: number): string {
  const verb = to.backTo === undefined ? "Switch" : "Roll back";
  const back = to.backTo === undefined ? "" : ` (back to release ${to.backTo})`;
  return `${verb} "${d.name}" from ${releaseWords(d)} to version ${to.version}${back}, as release ${next}.`;
}

/**
 * What serving the new version means for requests, by mode and state: on demand nothing
 * is loaded; an idle deployment loads the candidate (no release is unloaded); otherwise the
 * view's switchRoom says whether the candidate loads beside the current release or after
 * unloading it (`downtime`: the confirmation warns of it).
 */
export function effectWords(d: Served & Pick<Deployment, "mode" | "state" | "followsAlias" | "switchRoom">, version: number): { words: string; downtime: boolean } {
  const pin = d.followsAlias ? ` It is then pinned to version ${version}: it stops following “${d.followsAlias}”.` : "";
  if (d.mode === "on_demand") return { words: `On demand, nothing is loaded: the next request uses version ${version}.${pin}`, downtime: false };
  if (d.state === "idle") return { words: `It is idle (nothing loaded): the switch loads version ${version}; if that fails, it stays idle on ${releaseWords(d)}.${pin}`, downtime: false };
  if (!d.switchRoom) return { words: `The switch loads version ${version}; if it fails to load, the current release keeps serving.${pin}`, downtime: false };
  return { words: `${d.switchRoom.detail}${pin}`, downtime: d.switchRoom.kind === "downtime" };
}
