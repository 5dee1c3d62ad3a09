/** What `trainyard deploy` and `trainyard deployments …` print: one line per deployment/key, and the --json shapes. */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Out = inferRouterOutputs<AppRouter>["deployments"];
export type DeploymentOut = Out["list"][number];
export type KeyOut = Out["listKeys"][number];

/**
 * The deployment with the public routes it answers as full URLs of the server the CLI
 * talks to: predict and health (tabular), or generate, stream and health (llm).
 */
export function deploymentJson(d: DeploymentOut, serverUrl: string) {
  const base = serverUrl.replace(/\/+$/, "");
  const r = d.routes;
  const urls = d.kind === "llm" ? { generate: `${base}${r.generate}`, stream: `${base}${r.stream}`, health: `${base}${r.health}` } : { predict: `${base}${r.predict}`, health: `${base}${r.health}` };
  return { ...d, urls };
}

export function deploymentLine(d: DeploymentOut): string {
  const release = d.release ? `release ${d.release.number} (v${d.release.version})` : "no release";
  const follows = d.followsAlias ? `follows @${d.followsAlias}` : "pinned";
  return `${d.id}  ${d.name}  ${d.state}${d.reason ? ` (${d.reason})` : ""}  ${d.mode.replace("_", "-")}  ${d.model.name} ${release}, ${follows}  on ${d.computer.name}  revision ${d.revision}`;
}

export function keyLine(k: KeyOut): string {
  return `${k.id}  ${k.name}  ${k.prefix}…  created ${new Date(k.createdAt).toISOString()}${k.revokedAt ? `  revoked ${new Date(k.revokedAt).toISOString()}` : ""}${k.expiresAt && !k.revokedAt ? `  expires ${new Date(k.expiresAt).toISOString()}` : ""}`;
}
