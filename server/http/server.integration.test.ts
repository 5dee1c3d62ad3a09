/**
 * The real server process: access rules, single instance, restart durability, live
 * events, and the CLI commands that work on the data home.
 */
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/server/testing/server-harness";
import { cli, cliAsync, startExpectingRefusal, startServer, tempHome, type ServerProcess } from "@/tests/support/server-process";

const trpcCreate = (url: string, name: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/trpc/projects.create`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ json: { name } }),
  });
const trpcList = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/trpc/projects.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, { headers });

/** A raw request, so the Host header can be anything (fetch forbids setting it). */
function rawGet(port: number, pathName: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: "127.0.0.1", port, path: pathName, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on("error", reject);
  });
}

describe("an open loopback server", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it("creates its data home owner-only with the database in WAL mode", () => {
    expect(statSync(server.home).mode & 0o777).toBe(0o700);
    const db = new Database(path.join(server.home, "trainyard.db"), { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("reports health with version, database status and uptime", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "ok", version: expect.any(String), database: { status: "ok" } });
    expect(body.uptimeSeconds).toEqual(expect.any(Number));
  });

  it("refuses a Host header that is not one of its names (DNS rebinding)", async () => {
    expect(await rawGet(server.port, "/api/health", `evil.example:${server.port}`)).toBe(421);
    expect(await rawGet(server.port, "/api/health", `localhost:${server.port}`)).toBe(200);
    expect(await rawGet(server.port, "/", `127.0.0.1:${server.port}`)).toBe(200);
  });

  it("refuses a mutation from another origin (CSRF) and accepts its own", async () => {
    const bad = await trpcCreate(server.url, "From evil", { origin: "http://evil.example" });
    expect(bad.status).toBe(403);
    const good = await trpcCreate(server.url, "From here", { origin: server.url });
    expect(good.status).toBe(200);
  });

  it("maps bad input to clear errors", async () => {
    const empty = await trpcCreate(server.url, "   ");
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toMatch(/needs a name/);
    const long = await trpcCreate(server.url, "x".repeat(250));
    expect(long.status).toBe(400);
    expect(JSON.stringify(await long.json())).toMatch(/at most 100 characters/);
    await trpcCreate(server.url, "Twice");
    const dup = await trpcCreate(server.url, "twice");
    expect(dup.status).toBe(409);
    expect(JSON.stringify(await dup.json())).toMatch(/already exists/);
  });

  it("delivers a typed live event when a project changes", async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/events?topics=projects`, { signal: controller.signal });
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    await reader.read(); // the "connected" comment
    await trpcCreate(server.url, "Live one");
    let text = "";
    while (!text.includes("project.changed")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toMatch(/event: project.changed/);
    expect(text).toMatch(/"projectId":"/);
  });

  it("refuses a second server on the same data home", async () => {
    const second = await startExpectingRefusal({ TRAINYARD_HOME: server.home, TRAINYARD_PORT: String(server.port + 1) });
    expect(second.code).not.toBe(0);
    expect(second.output).toMatch(/Another Trainyard server \(pid \d+/);
    // The first is unharmed.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});

describe("server lifecycle", () => {
  it("keeps all data across a restart, and recovers after kill -9", async () => {
    const home = tempHome();
    let server = await startServer({ home });
    await trpcCreate(server.url, "Survives restarts");
    await server.stop("SIGTERM");
    server = await startServer({ home, port: server.port });
    expect(JSON.stringify(await (await trpcList(server.url)).json())).toMatch(/Survives restarts/);
    await server.stop("SIGKILL");
    // The lock of a killed server is stale and does not block the next start.
    server = await startServer({ home, port: server.port });
    expect(JSON.stringify(await (await trpcList(server.url)).json())).toMatch(/Survives restarts/);
    await server.stop();
  });

  it("removes upload parts a day old at start, and keeps a younger one that may still be resumed", async () => {
    const home = tempHome();
    let server = await startServer({ home });
    await server.stop();
    const incoming = path.join(home, "worker", "incoming");
    mkdirSync(incoming, { recursive: true });
    const stale = path.join(incoming, `${"a".repeat(64)}.part`);
    const young = path.join(incoming, `${"b".repeat(64)}.part`);
    writeFileSync(stale, "left by a crash");
    writeFileSync(young, "an upload in progress");
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    server = await startServer({ home, port: server.port });
    await waitFor("the stale part to be removed", () => !existsSync(stale));
    expect(existsSync(young)).toBe(true);
    await server.stop();
  });

  it("refuses to listen on a non-loopback address without an owner password", async () => {
    const r = await startExpectingRefusal({ TRAINYARD_HOME: tempHome(), TRAINYARD_HOST: "0.0.0.0", TRAINYARD_PORT: "0" });
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/owner set-password/);
  });

  it("refuses to start on a corrupt database, naming the file", async () => {
    const home = tempHome();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(home, "trainyard.db"), Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(8192, 1)]));
    const r = await startExpectingRefusal({ TRAINYARD_HOME: home, TRAINYARD_PORT: "0" });
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/damaged or is not a Trainyard database/);
    expect(existsSync(path.join(home, "server.lock"))).toBe(false);
  });
});

describe("a server with an owner password", () => {
  let server: ServerProcess;
  const password = "correct horse battery";
  beforeAll(async () => {
    const home = tempHome();
    const set = cli(["owner", "set-password"], { TRAINYARD_HOME: home }, `${password}\n`);
    expect(set.status, set.stderr).toBe(0);
    server = await startServer({ home, env: { TRAINYARD_HOST: "0.0.0.0" } });
  });
  afterAll(() => server?.stop());

  it("sends pages to the sign-in page and refuses API calls without a session", async () => {
    const page = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toMatch(/^\/login\?next=/);
    expect((await trpcList(server.url)).status).toBe(401);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(401);
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
  });

  it("signs in with an httpOnly SameSite=Strict cookie that opens the API", async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ password }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const session = cookie.split(";")[0]!;
    expect((await trpcList(server.url, { cookie: session })).status).toBe(200);
  });

  it("accepts API tokens from the CLI and refuses them once revoked", async () => {
    // cliAsync: a blocking CLI call would leave the next request on a kept-alive socket the server closed meanwhile.
    const created = await cliAsync(["token", "create", "scraper"], { TRAINYARD_HOME: server.home });
    expect(created.status, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^tyt_/);
    expect((await trpcList(server.url, { authorization: `Bearer ${token}` })).status).toBe(200);
    const listed = await cliAsync(["token", "list"], { TRAINYARD_HOME: server.home });
    expect(listed.stdout).toMatch(/scraper/);
    expect(listed.stdout).not.toContain(token);
    const id = listed.stdout.trim().split(/\s+/)[0]!;
    expect((await cliAsync(["token", "revoke", id], { TRAINYARD_HOME: server.home })).status).toBe(0);
    expect((await trpcList(server.url, { authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it("rate-limits failed sign-ins", async () => {
    const attempt = () =>
      fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ password: "wrong password" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
  });
});

describe("CLI on the data home", () => {
  it("prints its version", () => {
    const r = cli(["--version"], {});
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("backs up a consistent copy of the database with a manifest", async () => {
    const home = tempHome();
    const server = await startServer({ home });
    await trpcCreate(server.url, "Backed up");
    const target = tempHome("ty-backup-");
    const r = cli(["backup", target], { TRAINYARD_HOME: home });
    await server.stop();
    expect(r.status, r.stderr).toBe(0);
    const folder = r.stdout.match(/Backup written to (.+)/)![1]!.trim();
    const manifest = JSON.parse(readFileSync(path.join(folder, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ database: { file: "trainyard.db" }, managedData: { datasets: [], artifacts: [] } });
    const copy = new Database(path.join(folder, "trainyard.db"), { readonly: true });
    expect(copy.prepare("SELECT name FROM Project").all()).toEqual([{ name: "Backed up" }]);
    copy.close();
  });

  it("refuses a too-short owner password", () => {
    const r = cli(["owner", "set-password"], { TRAINYARD_HOME: tempHome() }, "short\n");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/at least 10 characters/);
  });
});
