/**
 * Access rules of the real server, checked with raw HTTP requests over lists generated
 * from the code: every route handler under app/, every page, every tRPC procedure of the
 * router. A route added later is covered without editing this file. With an owner
 * password set, an anonymous request — by its plain path or by any of the ways a path can
 * be written so that a router reads it differently from a guard — is refused (400, 401, or
 * a redirect to sign-in for a page), and an authenticated one gets through.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/root";
import { closeDb, openDb } from "@/server/db/client";
import { waitFor } from "@/server/testing/server-harness";
import { cli, REPO, startServer, tempHome, type ServerProcess } from "@/tests/support/server-process";

interface Endpoint {
  /** What the test reports, e.g. "GET /api/health" or "query settings.get". */
  label: string;
  method: "GET" | "POST";
  path: string;
  search: string;
  body?: string;
  page: boolean;
  public: boolean;
}

const PUBLIC = new Set(["/login", "/api/auth/login"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : [full];
  });
}

/** `app/projects/[id]/ml/page.tsx` → `/projects/sample-id/ml`; route groups `(x)` vanish. */
function urlPathOf(file: string): string {
  const rel = path.relative(path.join(REPO, "app"), path.dirname(file));
  const segments = rel.split(path.sep).filter((s) => s && !/^\(.*\)$/.test(s)).map((s) => (/^\[.*\]$/.test(s) ? "sample-id" : s));
  return "/" + segments.join("/");
}

function routeMethods(source: string): string[] {
  return METHODS.filter((m) => new RegExp(`export\\s+(const|async\\s+function|function)\\s+${m}\\b|as\\s+${m}\\b`).test(source));
}

function endpoints(): Endpoint[] {
  const files = walk(path.join(REPO, "app"));
  const out: Endpoint[] = [];
  for (const file of files.filter((f) => path.basename(f) === "page.tsx")) {
    const p = urlPathOf(file);
    out.push({ label: `page ${p}`, method: "GET", path: p, search: "", page: true, public: PUBLIC.has(p) });
  }
  for (const file of files.filter((f) => path.basename(f) === "route.ts")) {
    const p = urlPathOf(file);
    if (p === "/api/trpc/sample-id") continue; // expanded per procedure below
    for (const m of routeMethods(readFileSync(file, "utf8"))) {
      out.push({ label: `${m} ${p}`, method: m as "GET" | "POST", path: p, search: "", page: false, public: PUBLIC.has(p), body: m === "GET" ? undefined : "{}" });
    }
  }
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures;
  for (const [name, proc] of Object.entries(procedures)) {
    const input = encodeURIComponent(JSON.stringify({ json: { probeOnlyField: true } }));
    if (proc._def.type === "query") {
      out.push({ label: `query ${name}`, method: "GET", path: `/api/trpc/${name}`, search: `?input=${input}`, page: false, public: false });
    } else {
      out.push({ label: `${proc._def.type} ${name}`, method: "POST", path: `/api/trpc/${name}`, search: "", page: false, public: false, body: JSON.stringify({ json: { probeOnlyField: true } }) });
    }
  }
  return out;
}

/** Every way of writing `p` that a router may resolve to `p` (or near it) while a naive guard sees something else. */
function bypassForms(p: string): string[] {
  const rest = p.slice(1);
  return [
    `/_next/static/../..${p}`,
    `/_next/static/chunks/../../..${p}`,
    `/_next/static/%2e%2e/%2e%2e${p}`,
    `/_next/static/%2E%2E/%2E%2E${p}`,
    `/_next/static/..%2f..%2f${rest}`,
    `/${rest.replace(/\//g, "%2f")}`,
    `/${rest.replace(/\//g, "%2F")}`,
    `/${p}`,
    `/_next/static//..//..${p}`,
    `/_next/static/;/../..${p}`,
    `${p};.js`,
    `/_next/static/..;/..;${p}`,
    `${p}.`,
    `${p}/.`,
    `/login/..${p}`,
    `/login/%2e%2e${p}`,
    `/favicon.ico/..${p}`,
    `/_next/static/..\\..${p}`,
    `/_next/static/%5c..%5c..${p}`,
    p.toUpperCase(),
    `/_NEXT/static/../..${p}`,
    `/_next/static/%00/../..${p}`,
  ].filter((form) => form !== p); // a one-segment path has no slash to encode
}

interface RawAnswer {
  status: number;
  location: string | undefined;
  body: string;
}

function raw(port: number, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path: rawPath, headers: { host: `127.0.0.1:${port}`, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers } },
      (res) => {
        if (/event-stream/.test(String(res.headers["content-type"]))) {
          // A live stream never ends: its status is the answer.
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: "" });
          res.destroy();
          return;
        }
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          if (text.length < 4096) text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function refusedAnonymously(e: Endpoint, a: RawAnswer): boolean {
  if (a.status === 400 || a.status === 401) return true;
  return e.method === "GET" && a.status === 303 && (a.location ?? "").startsWith("/login?next=");
}

describe("every route, page and procedure with an owner password set", () => {
  let server: ServerProcess;
  let token = "";
  let readOnlyToken = "";
  let agentToken = "";
  let adminToken = "";
  const list = endpoints();
  // A deployment and its key, written straight into the server's database: the key's own
  // routes are the only place it opens (deployments.integration.test.ts makes real ones).
  const deploymentKey = `tyd_${randomBytes(24).toString("base64url")}`;
  const deploymentId = "access-test-deployment";

  beforeAll(async () => {
    const home = tempHome();
    const set = cli(["owner", "set-password"], { TRAINYARD_HOME: home }, "correct horse battery\n");
    expect(set.status, set.stderr).toBe(0);
    const created = cli(["token", "create", "access-test"], { TRAINYARD_HOME: home });
    expect(created.status, created.stderr).toBe(0);
    token = created.stdout.trim().split(/\s+/).find((w) => w.startsWith("tyt_")) ?? "";
    expect(token).toMatch(/^tyt_/);
    const readOnly = cli(["token", "create", "access-test-ro", "--read-only"], { TRAINYARD_HOME: home });
    expect(readOnly.status, readOnly.stderr).toBe(0);
    readOnlyToken = readOnly.stdout.trim().split(/\s+/).find((w) => w.startsWith("tyt_")) ?? "";
    expect(readOnlyToken).toMatch(/^tyt_/);
    const tokenOf = (scope: string, expires: string[] = []) => {
      const made = cli(["token", "create", `access-test-${scope}`, "--scope", scope, ...expires], { TRAINYARD_HOME: home });
      expect(made.status, made.stderr).toBe(0);
      expect(made.stderr).toContain(`scope ${scope}`);
      return made.stdout.trim();
    };
    agentToken = tokenOf("agent");
    adminToken = tokenOf("admin", ["--expires", "2h"]);
    const bad = cli(["token", "create", "x", "--scope", "root"], { TRAINYARD_HOME: home });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--scope takes one of read-only, agent, full, admin");
    server = await startServer({ home });
    const db = openDb(path.join(home, "trainyard.db"));
    try {
      // The server adds This computer's target row in its first reconcile pass, just after it answers.
      const target = await waitFor("This computer's target row", () => db.target.findFirst().then((t) => t ?? undefined));
      await db.deployment.create({ data: { id: deploymentId, projectId: "p", name: "access", nameKey: "access", mode: "on_demand", targetId: target.id, modelId: "m", state: "stopped" } });
      await db.deploymentKey.create({ data: { deploymentId, name: "access", prefix: deploymentKey.slice(0, 10), keyHash: createHash("sha256").update(deploymentKey).digest("hex") } });
    } finally {
      await closeDb();
    }
  });
  afterAll(() => server?.stop());

  it("finds the routes, pages and procedures it checks in the code", () => {
    const labels = list.map((e) => e.label);
    expect(labels).toEqual(expect.arrayContaining(["GET /api/health", "GET /metrics", "POST /api/datasets/upload", "page /settings", "page /login", "query settings.get", "mutation settings.update"]));
    expect(list.filter((e) => e.label.startsWith("query ")).length).toBeGreaterThan(10);
    expect(list.filter((e) => e.label.startsWith("mutation ")).length).toBeGreaterThan(10);
  });

  it("refuses every non-public endpoint to an anonymous caller by its plain path", async () => {
    const leaks: string[] = [];
    for (const e of list.filter((x) => !x.public)) {
      const a = await raw(server.port, e.method, e.path + e.search, {}, e.body);
      if (!refusedAnonymously(e, a)) leaks.push(`${e.label}: ${a.status} ${a.body.slice(0, 120)}`);
    }
    expect(leaks).toEqual([]);
  });

  it("refuses every bypass form of every endpoint (dot segments, encoded separators, //, ;, trailing dot, case)", async () => {
    const leaks: string[] = [];
    let checked = 0;
    for (const e of list) {
      for (const form of bypassForms(e.path)) {
        const a = await raw(server.port, e.method, form + e.search, {}, e.body);
        checked++;
        if (!refusedAnonymously(e, a)) leaks.push(`${e.label} as ${form}: ${a.status} ${a.body.slice(0, 120)}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(checked).toBeGreaterThan(list.length * 20);
  });

  it("answers 400 to raw paths a router would read differently, even for a signed-in caller", async () => {
    for (const form of ["/_next/static/../../api/trpc/settings.get", "/api/trpc/%2e%2e/health", "/api%2fhealth", "//api/health", "/api/health;x", "/api\\health"]) {
      const a = await raw(server.port, "GET", form, { authorization: `Bearer ${token}` });
      expect(a.status, form).toBe(400);
    }
  });

  // The owner's own credentials: refused to every API token but an admin-scoped one (server/auth/scopes.ts).
  const OWNER_CREDENTIALS = new Set(["auth.sessions", "auth.revokeSession", "auth.signOutEverywhere", "auth.tokens", "auth.createToken", "auth.revokeToken"]);
  const ownerCredentials = (e: { path: string }) => OWNER_CREDENTIALS.has(e.path.replace("/api/trpc/", ""));

  it("lets an authenticated caller reach every endpoint but the owner's own credentials", async () => {
    const blocked: string[] = [];
    // Queries and reads first; mutations last, with an input their schemas refuse, so
    // they prove the caller got past authentication without changing anything.
    const ordered = [...list.filter((e) => e.method === "GET"), ...list.filter((e) => e.method !== "GET")];
    for (const e of ordered) {
      const a = await raw(server.port, e.method, e.path + e.search, { authorization: `Bearer ${token}` }, e.body);
      const refusedByGuard = a.status === 401 || a.status === 403 || a.status === 411 || a.status === 413 || (a.status === 400 && /Request refused/.test(a.body));
      const sentToLogin = a.status === 303 && (a.location ?? "").startsWith("/login");
      if (ownerCredentials(e)) {
        if (a.status !== 403) blocked.push(`${e.label} (owner only): ${a.status} ${a.body.slice(0, 120)}`);
      } else if (refusedByGuard || sentToLogin || a.status === 0) blocked.push(`${e.label}: ${a.status} ${a.body.slice(0, 120)}`);
    }
    expect(blocked).toEqual([]);
  });

  it("lets a read-only token read everything and change nothing", async () => {
    const wrong: string[] = [];
    for (const e of list) {
      const a = await raw(server.port, e.method, e.path + e.search, { authorization: `Bearer ${readOnlyToken}` }, e.body);
      const refused = a.status === 401 || a.status === 403;
      if (e.method === "GET" && !ownerCredentials(e) ? refused : a.status !== 403) wrong.push(`${e.label}: ${a.status} ${a.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  const agentTools = (e: Endpoint) => e.path.startsWith("/api/agent/");

  it("lets an agent token reach the agent tools' routes and nothing else: no other route, page or procedure", async () => {
    const wrong: string[] = [];
    for (const e of list) {
      const a = await raw(server.port, e.method, e.path + e.search, { authorization: `Bearer ${agentToken}` }, e.body);
      const refused = a.status === 401 || a.status === 403;
      if (agentTools(e) ? refused : a.status !== 403) wrong.push(`${e.label}: ${a.status} ${a.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect(list.filter(agentTools).length).toBeGreaterThanOrEqual(2);
  });

  it("lets an admin token manage tokens, never minting one wider or longer-lived than itself, and its tokens end with it", async () => {
    const mint = (by: string, json: Record<string, unknown>) =>
      raw(server.port, "POST", "/api/trpc/auth.createToken", { authorization: `Bearer ${by}` }, JSON.stringify({ json }));
    // A full token cannot mint at all; an admin one can, within its own life.
    expect((await mint(token, { name: "from-full", scope: "read-only" })).status).toBe(403);
    const tooLong = await mint(adminToken, { name: "too-long", scope: "full", expires: "30d" });
    expect(tooLong.status, tooLong.body).toBe(403);
    expect(tooLong.body).toContain("cannot live longer");
    const child = await mint(adminToken, { name: "child", scope: "agent" });
    expect(child.status, child.body).toBe(200);
    const made = JSON.parse(child.body) as { result: { data: { json: { token: string; expiresAt: string } } } };
    const childToken = made.result.data.json.token;
    // Asked for no expiry, it got its parent's.
    expect(new Date(made.result.data.json.expiresAt).getTime()).toBeLessThanOrEqual(Date.now() + 2 * 3600_000);
    const project = await raw(server.port, "POST", "/api/trpc/projects.create", { authorization: `Bearer ${token}` }, JSON.stringify({ json: { name: "Access" } }));
    expect(project.status, project.body).toBe(200);
    const agentCall = () => raw(server.port, "GET", "/api/agent/session?project=Access", { authorization: `Bearer ${childToken}` });
    const first = await agentCall();
    expect(first.status, first.body).toBe(200);
    // The minted agent token itself can mint nothing.
    expect((await mint(childToken, { name: "grandchild", scope: "agent" })).status).toBe(403);
    const listed = await raw(server.port, "GET", `/api/trpc/auth.tokens?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, { authorization: `Bearer ${adminToken}` });
    expect(listed.status).toBe(200);
    const adminId = (JSON.parse(listed.body) as { result: { data: { json: { id: string; name: string }[] } } }).result.data.json.find((t) => t.name === "access-test-admin")!.id;
    // Revoking the admin token (by the owner, on the machine) ends the token it minted.
    const home = server.home;
    expect(cli(["token", "revoke", adminId], { TRAINYARD_HOME: home }).status).toBe(0);
    const after = await agentCall();
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body).error).toContain('minted by the token "access-test-admin"');
  });

  it("lets a deployment key reach its own deployment's routes and nothing else: no other route, page, procedure or bypass form", async () => {
    const own = [`/api/deployments/${deploymentId}/health`, `/api/deployments/${deploymentId}/predict`];
    const health = await raw(server.port, "GET", own[0]!, { authorization: `Bearer ${deploymentKey}` });
    expect(health.status, health.body).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ state: "stopped" });
    // Past the guard and the route's check: the stopped deployment answers for itself.
    expect((await raw(server.port, "POST", own[1]!, { authorization: `Bearer ${deploymentKey}` }, "{}")).status).toBe(503);
    const leaks: string[] = [];
    for (const e of list) {
      for (const form of [e.path, ...bypassForms(e.path)]) {
        const a = await raw(server.port, e.method, form + e.search, { authorization: `Bearer ${deploymentKey}` }, e.body);
        if (a.status !== 400 && a.status !== 401) leaks.push(`${e.label} as ${form}: ${a.status} ${a.body.slice(0, 120)}`);
      }
    }
    for (const p of own) {
      for (const form of bypassForms(p)) {
        const a = await raw(server.port, "GET", form, { authorization: `Bearer ${deploymentKey}` });
        if (a.status !== 400 && a.status !== 401) leaks.push(`own route as ${form}: ${a.status}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it("refuses a wrong deployment key, and an owner token's name used as one, on the deployment's own route", async () => {
    for (const key of [`${deploymentKey}x`, "tyd_", `tyd_${token.slice(4)}`]) {
      expect((await raw(server.port, "GET", `/api/deployments/${deploymentId}/health`, { authorization: `Bearer ${key}` })).status, key.slice(0, 6)).toBe(401);
    }
    // Anonymous callers stay refused there too, and the owner's token is let in.
    expect((await raw(server.port, "GET", `/api/deployments/${deploymentId}/health`)).status).toBe(401);
    expect((await raw(server.port, "GET", `/api/deployments/${deploymentId}/health`, { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it("keeps the sign-in page, the login route and hashed static assets public", async () => {
    expect((await raw(server.port, "GET", "/login")).status).toBe(200);
    const page = await raw(server.port, "GET", "/login");
    const asset = page.body.match(/\/_next\/static\/[^"']+\.js/)?.[0];
    expect(asset, "the sign-in page loads a hashed script").toBeTruthy();
    expect((await raw(server.port, "GET", asset!)).status).toBe(200);
    const login = await raw(server.port, "POST", "/api/auth/login", {}, JSON.stringify({ password: "not the password" }));
    expect(login.status).toBe(401);
  });

  it("ignores a principal header sent by the client", async () => {
    for (const forged of ['{"kind":"owner","sessionId":"x"}', `${"0".repeat(64)}.${Buffer.from('{"kind":"open"}').toString("base64url")}`]) {
      const a = await raw(server.port, "GET", `/api/trpc/settings.get?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, { "x-trainyard-principal": forged });
      expect(a.status).toBe(401);
    }
  });
});
