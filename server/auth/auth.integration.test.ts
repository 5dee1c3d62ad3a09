/**
 * Sign-in, sessions and API tokens through the real server, the way a browser, a script or
 * a password guesser meets them: raw HTTP requests, the CLI on the same data home, and
 * timestamps moved in the SQLite file where a test needs time to pass.
 */
import { createHash, randomBytes, scryptSync } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { cli, REPO, startServer, tempHome, type ServerProcess } from "@/tests/support/server-process";
import { beforeAllValue } from "@/tests/support/before-all-value";

const PASSWORD = "correct horse battery";

function setPassword(home: string, password = PASSWORD): void {
  const set = cli(["owner", "set-password"], { TRAINYARD_HOME: home }, `${password}\n`);
  expect(set.status, set.stderr).toBe(0);
}

/**
 * The CLI without blocking this process: while spawnSync blocks, the server's keep-alive
 * timeout can close a pooled connection unnoticed, and the next fetch fails on it.
 */
function cliAsync(args: string[], env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO, "bin/trainyard.mjs"), ...args], { cwd: REPO, env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

async function passwordServer(): Promise<ServerProcess> {
  const home = tempHome();
  setPassword(home);
  return startServer({ home });
}

/** Runs `fn` on the server's SQLite file (WAL mode: safe beside the running server). */
function withDb<T>(server: ServerProcess, fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(server.home, "trainyard.db"));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** SQLite text in the form Prisma writes it. */
const sqlTime = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");
const DAY = 86_400_000;

const trpcQuery = (server: ServerProcess, proc: string, headers: Record<string, string>, input: unknown = {}) =>
  fetch(`${server.url}/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers });
const trpcMutation = (server: ServerProcess, proc: string, headers: Record<string, string>, input: unknown = null) =>
  fetch(`${server.url}/api/trpc/${proc}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...headers },
    body: JSON.stringify({ json: input }),
  });
const listProjects = (server: ServerProcess, headers: Record<string, string>) => trpcQuery(server, "projects.list", headers);

const login = (server: ServerProcess, password: string) =>
  fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ password }),
  });

describe("the sign-in limiter", () => {
  const server = beforeAllValue("the password server", passwordServer, (s) => s.stop());

  it("resets an address's count when the correct password is given", async () => {
    for (let i = 0; i < 4; i++) expect((await login(server, "wrong password")).status).toBe(401);
    expect((await login(server, PASSWORD)).status).toBe(200);
    const after = [];
    for (let i = 0; i < 4; i++) after.push((await login(server, "wrong password")).status);
    expect(after).toEqual([401, 401, 401, 401]);
    expect((await login(server, PASSWORD)).status).toBe(200);
  });

  it("counts parallel guesses before checking them: of 20 at once, at most 5 are checked", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(server, "parallel guess")));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const limited = answers.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Once limited, even the right password waits for the window.
    expect((await login(server, PASSWORD)).status).toBe(429);
  });
});

/** A wrong-password sign-in sent from another loopback address (the limiter counts per address). */
function loginFrom(server: ServerProcess, localAddress: string): Promise<{ status: number; retryAfter: string | undefined }> {
  const body = JSON.stringify({ password: "wrong from afar" });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        path: "/api/auth/login",
        method: "POST",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), origin: server.url },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The server process's peak resident memory so far (VmHWM), in MiB. */
function peakMemoryMiB(server: ServerProcess): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

describe("password checks at once", () => {
  const server = beforeAllValue("the password server", passwordServer, (s) => s.stop());

  it("checks at most 2 passwords at once with 16 waiting, and answers the rest 503 with Retry-After", async () => {
    // 40 guesses from 20 addresses: the per-address limit lets every one through to the gate.
    const addresses = Array.from({ length: 20 }, (_, i) => `127.0.0.${i + 2}`);
    const peakBefore = peakMemoryMiB(server);
    const answers = await Promise.all(
      addresses.flatMap((address) => [0, 1].map(async () => ({ address, ...(await loginFrom(server, address)) }))),
    );
    const peakGrowth = peakMemoryMiB(server) - peakBefore;
    const checked = answers.filter((a) => a.status === 401).length;
    const busy = answers.filter((a) => a.status === 503);
    expect(answers.every((a) => a.status === 401 || a.status === 503)).toBe(true);
    expect(checked).toBeGreaterThanOrEqual(2);
    expect(checked).toBeLessThanOrEqual(18 + 2); // 2 running + 16 waiting (a little more as the first finish)
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((a) => Number(a.retryAfter) > 0)).toBe(true);
    // Two checks of 128 MiB at a time: measured ~355 MiB of peak growth here, ~535 MiB when
    // four run at once (libuv's thread pool is the only other bound).
    expect(peakGrowth).toBeLessThan(450);
    // A guess refused as busy does not count against its address.
    const turnedAway = busy[0]!.address;
    const counted = answers.filter((a) => a.address === turnedAway && a.status === 401).length;
    const more = [];
    for (let i = 0; i < 6 - counted; i++) more.push((await loginFrom(server, turnedAway)).status);
    expect(more).toEqual([...Array(5 - counted).fill(401), 429]);
  });
});

describe("the owner password hash", () => {
  const server = beforeAllValue("the password server", passwordServer, (s) => s.stop());

  it("is made with N=2^17, and an old N=2^15 hash is replaced at the next sign-in", async () => {
    const stored = () => withDb(server, (db) => (db.prepare("SELECT passwordHash FROM OwnerCredential").get() as { passwordHash: string }).passwordHash);
    expect(stored().split("$")[1]).toBe("131072");
    const salt = randomBytes(16);
    const oldHash = scryptSync(PASSWORD, salt, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const old = ["scrypt", 1 << 15, 8, 1, salt.toString("base64url"), oldHash.toString("base64url")].join("$");
    withDb(server, (db) => db.prepare("UPDATE OwnerCredential SET passwordHash = ?").run(old));
    expect((await login(server, "not the password")).status).toBe(401);
    expect(stored()).toBe(old);
    expect((await login(server, PASSWORD)).status).toBe(200);
    const [kind, n, r, p] = stored().split("$");
    expect([kind, n, r, p]).toEqual(["scrypt", "131072", "8", "1"]);
    expect((await login(server, PASSWORD)).status).toBe(200);
  });
});

describe("login sessions", () => {
  const server = beforeAllValue("the password server", passwordServer, (s) => s.stop());

  /** Signs in; returns the cookie to send and the session's row id. */
  async function newSession(): Promise<{ cookie: Record<string, string>; id: string }> {
    const res = await login(server, PASSWORD);
    expect(res.status).toBe(200);
    const pair = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const secret = decodeURIComponent(pair.slice(pair.indexOf("=") + 1));
    const tokenHash = createHash("sha256").update(secret).digest("hex");
    const row = withDb(server, (db) => db.prepare("SELECT id FROM LoginSession WHERE tokenHash = ?").get(tokenHash) as { id: string });
    return { cookie: { cookie: pair }, id: row.id };
  }
  const setTimes = (id: string, times: Partial<Record<"createdAt" | "lastSeenAt" | "expiresAt", number>>) =>
    withDb(server, (db) => {
      for (const [column, ms] of Object.entries(times)) db.prepare(`UPDATE LoginSession SET ${column} = ? WHERE id = ?`).run(sqlTime(ms), id);
    });
  const lastSeen = (id: string) =>
    withDb(server, (db) => (db.prepare("SELECT lastSeenAt FROM LoginSession WHERE id = ?").get(id) as { lastSeenAt: string }).lastSeenAt);

  it("refuses a session unused for 7 days", async () => {
    const s = await newSession();
    expect((await listProjects(server, s.cookie)).status).toBe(200);
    setTimes(s.id, { lastSeenAt: Date.now() - 7 * DAY - 60_000 });
    expect((await listProjects(server, s.cookie)).status).toBe(401);
    const page = await fetch(`${server.url}/settings`, { headers: s.cookie, redirect: "manual" });
    expect(page.headers.get("location")).toMatch(/^\/login\?next=/);
  });

  it("refuses a session 30 days after sign-in even when it was used a minute ago", async () => {
    const s = await newSession();
    const now = Date.now();
    setTimes(s.id, { createdAt: now - 30 * DAY, expiresAt: now - 1000, lastSeenAt: now - 60_000 });
    expect((await listProjects(server, s.cookie)).status).toBe(401);
  });

  it("sets a 30-day cookie and records use at most once a minute", async () => {
    const res = await login(server, PASSWORD);
    const expires = Date.parse(/Expires=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!);
    expect(Math.abs(expires - (Date.now() + 30 * DAY))).toBeLessThan(120_000);
    const s = await newSession();
    await listProjects(server, s.cookie);
    const first = lastSeen(s.id);
    await listProjects(server, s.cookie);
    expect(lastSeen(s.id)).toBe(first);
    setTimes(s.id, { lastSeenAt: Date.now() - 2 * 60_000 });
    expect((await listProjects(server, s.cookie)).status).toBe(200);
    expect(Date.now() - Date.parse(lastSeen(s.id))).toBeLessThan(30_000);
  });

  it("lists sessions with this one marked; signing one out or everywhere ends the others", async () => {
    const a = await newSession();
    const b = await newSession();
    const listed = await trpcQuery(server, "auth.sessions", a.cookie);
    expect(listed.status).toBe(200);
    const sessions = ((await listed.json()) as { result: { data: { json: { id: string; current: boolean; lastSeenAt: string }[] } } }).result.data.json;
    expect(sessions.find((x) => x.id === a.id)).toMatchObject({ current: true });
    expect(sessions.find((x) => x.id === b.id)).toMatchObject({ current: false });
    expect((await trpcMutation(server, "auth.revokeSession", a.cookie, { id: b.id })).status).toBe(200);
    expect((await listProjects(server, b.cookie)).status).toBe(401);
    expect((await listProjects(server, a.cookie)).status).toBe(200);

    const c = await newSession();
    expect((await listProjects(server, c.cookie)).status).toBe(200);
    expect((await trpcMutation(server, "auth.signOutEverywhere", a.cookie)).status).toBe(200);
    expect((await listProjects(server, c.cookie)).status).toBe(401);
    expect((await listProjects(server, a.cookie)).status).toBe(401);
  });
});

describe("API tokens with expiry and scope", () => {
  const server = beforeAllValue("the password server", passwordServer, (s) => s.stop());

  const token = (args: string[]) => cliAsync(["token", ...args], { TRAINYARD_HOME: server.home });
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  it("creates a token that expires and is read-only, and lists its expiry and scope", async () => {
    const created = await token(["create", "nightly report", "--expires", "30d", "--read-only"]);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout.trim()).toMatch(/^tyt_/);
    expect(created.stderr).toMatch(/read-only; expires \d{4}-/);
    const line = (await token(["list"])).stdout.split("\n").find((l) => l.includes("nightly report"))!;
    expect(line).toMatch(/read-only/);
    const expires = Date.parse(/expires (\S+)/.exec(line)![1]!);
    expect(Math.abs(expires - (Date.now() + 30 * DAY))).toBeLessThan(120_000);
    const plain = await token(["create", "plain"]);
    expect((await token(["list"])).stdout.split("\n").find((l) => l.includes("plain"))).toMatch(/full\s+active\s+no expiry/);
    expect(plain.status).toBe(0);
  });

  it.each([["30x"], ["0d"]])("refuses --expires %s with the forms it accepts", async (bad) => {
    const r = await token(["create", "bad", "--expires", bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`Cannot read the duration "${bad.replace(".", "\\.")}".*e\\.g\\. 12h or 30d`));
    expect((await token(["list"])).stdout).not.toMatch(/ bad /);
  });

  it("refuses an expired token with 401 saying it expired", async () => {
    const t = (await token(["create", "short-lived", "--expires", "1h"])).stdout.trim();
    expect((await listProjects(server, bearer(t))).status).toBe(200);
    withDb(server, (db) => db.prepare("UPDATE ApiToken SET expiresAt = ? WHERE name = 'short-lived'").run(sqlTime(Date.now() - 1000)));
    const refused = await listProjects(server, bearer(t));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toMatch(/expired/);
    expect((await token(["list"])).stdout.split("\n").find((l) => l.includes("short-lived"))).toMatch(/expired \d{4}-/);
  });

  it("lets a read-only token query projects.list and refuses it projects.create (403)", async () => {
    const t = (await token(["create", "reader", "--read-only"])).stdout.trim();
    expect((await listProjects(server, bearer(t))).status).toBe(200);
    const create = await trpcMutation(server, "projects.create", bearer(t), { name: "Written by a reader" });
    expect(create.status).toBe(403);
    expect(((await create.json()) as { error: string }).error).toMatch(/read-only/);
    const full = (await token(["create", "writer"])).stdout.trim();
    expect((await trpcMutation(server, "projects.create", bearer(full), { name: "Written by a writer" })).status).toBe(200);
    expect(JSON.stringify(await (await listProjects(server, bearer(t))).json())).not.toMatch(/Written by a reader/);
  });

  it("refuses every token, even a full one, to mint tokens, list or end sessions, or revoke tokens (a short-lived token used to mint one without expiry)", async () => {
    const short = (await token(["create", "short-writer", "--expires", "1h"])).stdout.trim();
    const minted = await trpcMutation(server, "auth.createToken", bearer(short), { name: "forever" });
    expect(minted.status).toBe(403);
    expect(JSON.stringify(await minted.json())).toMatch(/cannot manage sessions or tokens/);
    for (const proc of ["auth.sessions", "auth.tokens"]) expect((await trpcQuery(server, proc, bearer(short))).status, proc).toBe(403);
    expect((await trpcMutation(server, "auth.signOutEverywhere", bearer(short))).status).toBe(403);
    expect((await trpcMutation(server, "auth.revokeToken", bearer(short), { id: "anything" })).status).toBe(403);
    expect((await token(["list"])).stdout).not.toMatch(/forever/);
    // The token still does what a full token is for.
    expect((await trpcMutation(server, "projects.create", bearer(short), { name: "Written by a short-lived writer" })).status).toBe(200);
  });
});

describe("the sign-in page", () => {
  const locked = beforeAllValue("the password server", passwordServer, (s) => s.stop());
  const open = beforeAllValue("the server without a password", () => startServer(), (s) => s.stop());

  const page = async (server: ServerProcess, next?: string) => {
    const res = await fetch(`${server.url}/login${next === undefined ? "" : `?next=${encodeURIComponent(next)}`}`);
    expect(res.status).toBe(200);
    return res.text();
  };

  it("shows the password form only when a password is set, and says how to set one otherwise", async () => {
    const withPassword = await page(locked);
    expect(withPassword).toMatch(/type="password"/);
    expect(withPassword).not.toMatch(/No owner password is set/);
    const without = await page(open);
    expect(without).toMatch(/No owner password is set/);
    expect(without).toMatch(/trainyard owner set-password/);
    expect(without).not.toMatch(/type="password"/);
  });

  it("names a next path of this origin and ignores one that leads elsewhere", async () => {
    expect(await page(locked, "/projects/abc?tab=data")).toMatch(/taken to <code[^>]*>\/projects\/abc\?tab=data<\/code>/);
    for (const evil of ["/\\evil.example", "//evil.example", "https://evil.example", "/%5Cevil"]) {
      expect(await page(locked, evil), evil).not.toMatch(/taken to/);
    }
  });
});
