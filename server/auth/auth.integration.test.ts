/**
 * Sign-in, sessions and API tokens through the real server, the way a browser, a script or
 * a password guesser meets them: raw HTTP requests, the CLI on the same data home, and
 * timestamps moved in the SQLite file where a test needs time to pass.
 */
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
