// Unknown fields through the real server with raw requests: a tRPC mutation and a query
// with an extra field (top level and nested) answer 400 naming the field, and so does
// the upload route's query string; the same requests without it succeed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPC_MAX_BATCH } from "@/contracts/api-limits";
import { startServer, type ServerProcess } from "@/tests/support/server-process";

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer();
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

const post = (proc: string, input: unknown) =>
  fetch(`${server.url}/api/trpc/${proc}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ json: input }) });
const get = (proc: string, input: unknown) => fetch(`${server.url}/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
const errorOf = async (res: Response) => ((await res.json()) as { error: { json: { message: string; data: { code: string } } } }).error.json;

describe("unknown fields at the API edge", () => {
  it("a mutation with an extra top-level field answers 400 naming it, and nothing is created", async () => {
    const res = await post("projects.create", { name: "Strict", ownerId: "someone" });
    expect(res.status).toBe(400);
    const err = await errorOf(res);
    expect(err.data.code).toBe("BAD_REQUEST");
    expect(err.message).toMatch(/Unrecognized key: \\?"ownerId/);
    const list = (await ((await get("projects.list", { includeArchived: true })).json())) as { result: { data: { json: { name: string }[] } } };
    expect(list.result.data.json.map((p) => p.name)).not.toContain("Strict");
    expect((await post("projects.create", { name: "Strict" })).status).toBe(200);
  });

  it("an extra field nested inside the input is refused too", async () => {
    const current = ((await (await fetch(`${server.url}/api/trpc/settings.get`)).json()) as { result: { data: { json: { revision: number; values: object } } } }).result.data.json;
    const res = await post("settings.update", { revision: current.revision, values: { ...current.values, allowRoot: true } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/Unrecognized key: \\?"allowRoot/);
  });

  it("a query with an extra field answers 400 naming it", async () => {
    const res = await get("projects.list", { includeArchived: true, limit: 5 });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/Unrecognized key: \\?"limit/);
  });

  it("the upload route refuses an unknown query parameter, naming it", async () => {
    const project = ((await (await post("projects.create", { name: "Strict upload" })).json()) as { result: { data: { json: { id: string } } } }).result.data.json;
    const q = new URLSearchParams({ projectId: project.id, fileName: "a.csv", overwrite: "yes" });
    const res = await fetch(`${server.url}/api/datasets/upload?${q}`, { method: "POST", body: "a,b\n1,2\n" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/Unrecognized key: "overwrite"/);
  });
});

describe("bounded batches", () => {
  it("answers a batch of TRPC_MAX_BATCH calls and refuses one more with 400, running none of it", async () => {
    const batch = (n: number) => {
      const paths = Array.from({ length: n }, () => "projects.list").join(",");
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { json: { includeArchived: true } }]));
      return fetch(`${server.url}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`);
    };
    const ok = await batch(TRPC_MAX_BATCH);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as unknown[]).length).toBe(TRPC_MAX_BATCH);
    const refused = await batch(TRPC_MAX_BATCH + 1);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toMatch(/batch/i);
  });
});
