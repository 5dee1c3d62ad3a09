/**
 * The one reading of a request's path that every access decision uses. Next.js resolves
 * dot segments and percent-escapes before routing, so a guard that matched the raw URL
 * could be walked around (`/_next/static/../../api/…`). Here any raw path that a router
 * could read differently from how it is written is refused outright (400): dot segments,
 * encoded slashes, backslashes or dots, empty segments, `;` parameters, control
 * characters, malformed escapes. What remains decodes to one unambiguous path.
 */
export type PathVerdict =
  | { ok: true; path: string; search: string }
  | { ok: false; reason: string };

const ENCODED_SEPARATOR = /%(2f|5c|2e|00)/i;
const MALFORMED_ESCAPE = /%(?![0-9a-f]{2})/i;
const CONTROL = /[\x00-\x1f\x7f]/;

export function normaliseRequestPath(rawUrl: string): PathVerdict {
  const q = rawUrl.indexOf("?");
  const raw = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const search = q === -1 ? "" : rawUrl.slice(q);
  if (!raw.startsWith("/")) return { ok: false, reason: "the path must start with /" };
  if (raw.includes("\\")) return { ok: false, reason: "backslashes are not allowed in a path" };
  if (ENCODED_SEPARATOR.test(raw)) return { ok: false, reason: "encoded slashes, backslashes, dots or NULs are not allowed in a path" };
  if (MALFORMED_ESCAPE.test(raw)) return { ok: false, reason: "the path has a malformed %-escape" };
  if (raw.includes(";")) return { ok: false, reason: "';' is not allowed in a path" };
  if (CONTROL.test(raw) || CONTROL.test(search)) return { ok: false, reason: "control characters are not allowed in a URL" };
  const segments = raw.slice(1).split("/");
  if (raw !== "/" && segments.some((s, i) => s === "" && i !== segments.length - 1)) {
    return { ok: false, reason: "empty path segments (//) are not allowed" };
  }
  if (segments.some((s) => s === "." || s === "..")) return { ok: false, reason: "dot segments are not allowed in a path" };
  let decoded: string;
  try {
    decoded = "/" + segments.map((s) => decodeURIComponent(s)).join("/");
  } catch {
    return { ok: false, reason: "the path is not valid UTF-8" };
  }
  if (CONTROL.test(decoded)) return { ok: false, reason: "control characters are not allowed in a path" };
  return { ok: true, path: decoded, search };
}

/** Paths anyone may reach while an owner password is set, matched exactly. */
const PUBLIC_EXACT = new Set(["/login", "/api/auth/login", "/favicon.ico", "/icon.svg"]);
// Next's build output: content-hashed file names under /_next/static/ (chunks, css, media).
const HASHED_ASSET = /^\/_next\/static\/[A-Za-z0-9_\-~.][A-Za-z0-9_\-~./]*$/;

export function isPublicPath(path: string): boolean {
  return PUBLIC_EXACT.has(path) || HASHED_ASSET.test(path);
}

/** The agent tools' route (app/api/agent): the only door an agent-scoped token opens. */
export const AGENT_TOOLS_PATH = "/api/agent/";

export function isAgentToolsPath(path: string): boolean {
  return path.startsWith(AGENT_TOOLS_PATH);
}

/**
 * A deployment's public routes, the only paths a deployment key opens (server/deployments):
 * Trainyard's own, and the ecosystem's protocols (issue 34) under the same prefix — OpenAI's
 * `/v1/…` for an LLM, MLflow's `/invocations` + `/ping` and Open Inference v2 for a table.
 */
const DEPLOYMENT_ROUTE =
  /^\/api\/deployments\/([A-Za-z0-9_-]{1,64})\/(predict|generate|stream|health|openapi\.json|v1\/models|v1\/chat\/completions|v1\/completions|invocations|ping|v2\/health\/ready|v2\/models\/[^/]{1,200}\/infer)$/;

/** The deployment whose public route `path` (normalised) is exactly, or null. */
export function deploymentOfRoute(path: string): string | null {
  return DEPLOYMENT_ROUTE.exec(path)?.[1] ?? null;
}

/** Routes that stream a large body under their own caps; every other body is small JSON. */
const STREAMED_BODY = [/^\/api\/datasets\/upload$/, /^\/api\/finetune\/uploads$/, /^\/api\/experiments\/[^/]+\/predict$/, /^\/api\/deployments\/[^/]+\/(predict|invocations|v2\/models\/[^/]+\/infer)$/];

export function hasStreamedBody(path: string): boolean {
  return STREAMED_BODY.some((re) => re.test(path));
}
