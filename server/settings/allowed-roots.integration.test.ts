// Allowed folders through the real server with raw tRPC requests: `settings.update`
// answers 400 naming the folder and the reason for a system folder, a symlink to one,
// the user's ~/.ssh and Trainyard's own home (inside it or containing it), and saves a
// plain data folder. The server runs with HOME set to a temp folder, so "the user's
// ~/.ssh" is one this test made, never the real one.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ServerProcess } from "@/tests/support/server-process";

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "ty-roots-it-")));
const home = path.join(base, "trainyard-home");
const userHome = path.join(base, "user");
const data = path.join(base, "data");
let server: ServerProcess;

beforeAll(async () => {
  for (const d of [home, path.join(userHome, ".ssh"), data]) mkdirSync(d, { recursive: true });
  symlinkSync("/etc", path.join(data, "etc-link"));
  server = await startServer({ home, env: { HOME: userHome } });
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

interface TrpcAnswer {
  status: number;
  body: { result?: { data: { json: { revision: number; values: Record<string, unknown> } } }; error?: { json: { message: string; data: { code: string; details: Record<string, unknown> | null } } } };
}

async function call(proc: string, input?: unknown): Promise<TrpcAnswer> {
  const url = `${server.url}/api/trpc/${proc}`;
  const res =
    input === undefined
      ? await fetch(url)
      : await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ json: input }) });
  return { status: res.status, body: (await res.json()) as TrpcAnswer["body"] };
}

async function saveRoots(roots: string[]): Promise<TrpcAnswer> {
  const current = (await call("settings.get")).body.result!.data.json;
  return call("settings.update", { revision: current.revision, values: { ...current.values, allowedRoots: roots } });
}

describe("allowed folders through the real server", () => {
  it.each([
    ["/etc", /The folder \/etc cannot be allowed: it is the system folder \/etc/],
    ["/proc/self", /system folder \/proc/],
    ["/", /whole disk/],
    [path.join(data, "etc-link"), /etc-link cannot be allowed: .*it leads to \/etc/],
    [path.join(userHome, ".ssh"), /\.ssh cannot be allowed: it is a credentials folder \(\.ssh\)/],
    [path.join(home, "datasets"), /inside Trainyard's own home/],
    [base, /contains Trainyard's own home/],
  ])("settings.update refuses %s with 400 and the reason", async (root, reason) => {
    const res = await saveRoots([data, root]);
    expect(res.status).toBe(400);
    expect(res.body.error!.json.message).toMatch(reason);
    expect(res.body.error!.json.data).toMatchObject({ code: "BAD_REQUEST", details: { field: "allowedRoots" } });
  });

  it("saves a plain data folder, and the worker allows exactly that", async () => {
    const res = await saveRoots([data]);
    expect(res.status).toBe(200);
    expect(res.body.result!.data.json.values.allowedRoots).toEqual([data]);
    const workerConfig = JSON.parse(readFileSync(path.join(home, "worker", "config.json"), "utf8")) as { allowedRoots?: string[] };
    expect(workerConfig.allowedRoots).toEqual([data]);
  });
});
