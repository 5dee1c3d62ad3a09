/**
 * Sign-in, sessions and API tokens through the real server, the way a browser, a script or
 * a password guesser meets them: raw HTTP requests, the CLI on the same data home, and
 * timestamps moved in the SQLite file where a test needs time to pass.
 */
import { randomBytes, scryptSync } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, startServer, tempHome, type ServerProcess } from "@/tests/support/server-process";

const PASSWORD = "correct horse battery";

function setPassword(home: string, password = PASSWORD): void {
  const set = cli(["owner", "set-password"], { TRAINYARD_HOME: home }, `${password}\n`);
  expect(set.status, set.stderr).toBe(0);
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

const login = (server: ServerProcess, password: string) =>
  fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ password }),
  });

describe("the sign-in limiter", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await passwordServer();
  });
  afterAll(() => server?.stop());

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

describe("the owner password hash", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await passwordServer();
  });
  afterAll(() => server?.stop());

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
