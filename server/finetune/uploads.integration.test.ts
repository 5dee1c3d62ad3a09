// Base-model uploads through the real server with an owner password set, by raw HTTP:
// POST /api/finetune/uploads stores one file in This computer's store by SHA-256 (stored
// once), GET says whether it is there, and an anonymous, oversized, fake-GGUF or
// unknown-project request is refused with nothing left behind. The CLI's uploadModelFile
// hashes first and sends nothing for bytes the server holds.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadModelFile, type HttpConnection } from "@/server/cli/train/upload-file";
import { prepareBuilds } from "@/server/testing/server-harness";
import { cli, REPO, startServer, tempHome, type ServerProcess } from "@/tests/support/server-process";

const MODEL_DIR = path.join(REPO, "tests", "fixtures", "models", "lm-buddy-fake-gpt2");

let server: ServerProcess;
let token = "";
let projectId = "";

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One raw request; `declaredLength` may differ from the bytes sent (an oversized announcement). */
function request(method: string, pathAndQuery: string, opts: { auth?: boolean; body?: Buffer; declaredLength?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/octet-stream" };
    if (opts.auth !== false) headers.authorization = `Bearer ${token}`;
    if (opts.body || opts.declaredLength !== undefined) headers["content-length"] = String(opts.declaredLength ?? opts.body!.length);
    const req = http.request({ host: "127.0.0.1", port: server.port, method, path: pathAndQuery, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
        req.destroy();
      });
    });
    req.on("error", reject);
    if (opts.declaredLength !== undefined && opts.body) req.write(opts.body); // the rest never comes
    else req.end(opts.body);
  });
}

const uploadPath = (fileName: string, project = projectId) => `/api/finetune/uploads?${new URLSearchParams({ projectId: project, fileName })}`;
const statusPath = (sha256: string) => `/api/finetune/uploads?${new URLSearchParams({ projectId, sha256 })}`;
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const blobOf = (sha: string) => path.join(server.home, "worker", "store", sha.slice(0, 2), sha);
const incoming = () => readdirSync(path.join(server.home, "worker", "incoming"));

beforeAll(async () => {
  await prepareBuilds(); // startServer's wait is for a start, not for a build of the web app
  const home = tempHome();
  const set = cli(["owner", "set-password"], { TRAINYARD_HOME: home }, "correct horse battery\n");
  expect(set.status, set.stderr).toBe(0);
  const created = cli(["token", "create", "uploads-test"], { TRAINYARD_HOME: home });
  expect(created.status, created.stderr).toBe(0);
  token = created.stdout.trim().split(/\s+/).find((w) => w.startsWith("tyt_")) ?? "";
  server = await startServer({ home });
  const res = await fetch(`${server.url}/api/trpc/projects.create`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ json: { name: "Base models" } }),
  });
  projectId = ((await res.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
}, 300_000);
afterAll(() => server?.stop());

describe("POST /api/finetune/uploads", () => {
  it("stores a model file by SHA-256 once, and says so when asked", async () => {
    const weights = readFileSync(path.join(MODEL_DIR, "model.safetensors"));
    const first = await request("POST", uploadPath("model.safetensors"), { body: weights });
    expect(first).toEqual({ status: 201, body: { sha256: sha256(weights), bytes: weights.length, reused: false } });
    expect(readFileSync(blobOf(sha256(weights)))).toEqual(weights);
    expect(statSync(blobOf(sha256(weights))).mode & 0o222).toBe(0);

    const again = await request("POST", uploadPath("copy.safetensors"), { body: weights });
    expect(again.body).toMatchObject({ sha256: sha256(weights), reused: true });
    expect(await request("GET", statusPath(sha256(weights)))).toEqual({ status: 200, body: { sha256: sha256(weights), present: true, bytes: weights.length } });
    expect((await request("GET", statusPath("0".repeat(64)))).body).toMatchObject({ present: false, bytes: null });
    expect(incoming()).toEqual([]);
  });

  it("accepts a .gguf that starts with the GGUF magic and refuses one that does not", async () => {
    const gguf = Buffer.concat([Buffer.from("GGUF"), Buffer.from([3, 0, 0, 0]), Buffer.alloc(64, 7)]);
    expect((await request("POST", uploadPath("tiny.Q4_1.gguf"), { body: gguf })).status).toBe(201);
    const fake = Buffer.from("<html>not found</html>");
    const refused = await request("POST", uploadPath("model.gguf"), { body: fake });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "not_a_model" });
    expect(String(refused.body.error)).toMatch(/model\.gguf is not a GGUF file/);
    expect(existsSync(blobOf(sha256(fake)))).toBe(false);
    // A trailing dot or space, or another case, does not slip random bytes past the check.
    const random = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256));
    for (const name of ["x.gguf.", "x.GGUF", "x.gguf "]) {
      const r = await request("POST", uploadPath(name), { body: random });
      expect(r.status, name).toBe(400);
      expect(r.body).toMatchObject({ code: "not_a_model" });
    }
    expect(existsSync(blobOf(sha256(random)))).toBe(false);
    expect(incoming()).toEqual([]);
  });

  it("refuses an anonymous caller (401) and stores nothing", async () => {
    const body = Buffer.from("anonymous bytes");
    const res = await request("POST", uploadPath("x.bin"), { body, auth: false });
    expect(res.status).toBe(401);
    expect(existsSync(blobOf(sha256(body)))).toBe(false);
    expect((await request("GET", statusPath(sha256(body)), { auth: false })).status).toBe(401);
  });

  it("refuses a file announced over the per-file cap with 413, without waiting for its bytes", async () => {
    const res = await request("POST", uploadPath("huge.gguf"), { body: Buffer.from("GGUF"), declaredLength: 65 * 1024 ** 3 });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("too_large");
    expect(String(res.body.error)).toMatch(/huge\.gguf is 65 \S+, larger than the upload cap of 64 \S+ for one model file/);
    expect(incoming()).toEqual([]);
  }, 30_000);

  it("refuses an unknown project and a file name with a slash", async () => {
    expect((await request("POST", uploadPath("a.bin", "no-such-project"), { body: Buffer.from("x") })).status).toBe(404);
    expect((await request("POST", uploadPath("dir/a.bin"), { body: Buffer.from("x") })).status).toBe(400);
  });

  it("uploadModelFile (the CLI's) sends a new file with progress and skips one the server holds", async () => {
    const conn: HttpConnection = { url: server.url, headers: { authorization: `Bearer ${token}` } };
    const file = path.join(server.home, "tokenizer-extra.json");
    writeFileSync(file, JSON.stringify({ added: ["<|x|>"], at: Date.now() }));
    const lines: string[] = [];
    const sent = await uploadModelFile(conn, projectId, file, (l) => lines.push(l), "tokenizer/extra.json");
    expect(sent).toMatchObject({ sha256: sha256(readFileSync(file)), reused: false });
    expect(lines.some((l) => /^uploading tokenizer\/extra\.json: 100%/.test(l))).toBe(true);

    const again: string[] = [];
    expect(await uploadModelFile(conn, projectId, file, (l) => again.push(l))).toMatchObject({ reused: true });
    expect(again.some((l) => l.startsWith("uploading"))).toBe(false);
    expect(again).toContain("tokenizer-extra.json: already on the server, not sent again");
  });
});
