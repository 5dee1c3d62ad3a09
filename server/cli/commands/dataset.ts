/**
 * `trainyard dataset upload FILE --project NAME [--encoding latin-1]`: streams a file to
 * the running server's upload route (the same one the browser uses), so it is hashed
 * and stored like any upload. Talks to TRAINYARD_URL with TRAINYARD_TOKEN when set.
 */
import { createReadStream, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { loadConfig } from "@/server/config/env";
import { CliError } from "../cli-error";
import { connect, withRetry } from "../api-client";

export const USAGE = "Usage: trainyard dataset upload FILE --project NAME [--encoding utf-8|latin-1]";

function parseArgs(args: string[]) {
  const [sub, file, ...rest] = args;
  if (sub !== "upload" || !file) throw new CliError(USAGE, 2);
  let project: string | undefined;
  let encoding = "utf-8";
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--project") project = rest[++i];
    else if (rest[i] === "--encoding") encoding = rest[++i] ?? "";
    else throw new CliError(`Unknown option ${rest[i]}.\n${USAGE}`, 2);
  }
  if (!project) throw new CliError(`Name the project with --project.\n${USAGE}`, 2);
  if (encoding !== "utf-8" && encoding !== "latin-1") throw new CliError("--encoding is utf-8 or latin-1.", 2);
  return { file: path.resolve(file), project, encoding };
}

function post(url: string, file: string, size: number, token: string | undefined): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/octet-stream", "content-length": String(size) };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (b: Buffer) => (text += b.toString("utf8")));
      res.on("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: { error: text.slice(0, 300) } });
        }
      });
    });
    req.on("error", (e) => reject(new CliError(`Could not reach Trainyard at ${new URL(url).origin}: ${e.message}. Is it running?`, 1, "server_unreachable")));
    let sent = 0;
    let last = 0;
    const stream = createReadStream(file);
    stream.on("data", (b) => {
      sent += b.length;
      if (process.stderr.isTTY && Date.now() - last > 500) {
        last = Date.now();
        process.stderr.write(`\r${Math.round((sent / Math.max(size, 1)) * 100)}% of ${size} bytes`);
      }
    });
    stream.on("error", (e) => req.destroy(e));
    stream.pipe(req);
  });
}

export async function datasetCommand(args: string[]): Promise<number> {
  const { file, project, encoding } = parseArgs(args);
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) throw new CliError(`${file} is not a regular file.`);
  const config = loadConfig();
  const conn = connect();
  const projects = await withRetry(() => conn.api.projects.list.query({ includeArchived: true }));
  const match = projects.find((p) => p.name.toLocaleLowerCase("en") === project.toLocaleLowerCase("en"));
  if (!match) throw new CliError(`There is no project named "${project}". Create it in the web app first.`, 1, "not_found");
  const q = new URLSearchParams({ projectId: match.id, fileName: path.basename(file), encoding });
  const res = await post(`${config.url}/api/datasets/upload?${q}`, file, st.size, config.token);
  if (process.stderr.isTTY) process.stderr.write("\n");
  if (res.status !== 201) {
    const hint = res.body.code === "invalid_utf8" ? " Run again with --encoding latin-1 if the file is Latin-1." : "";
    throw new CliError(`Upload refused (${res.status}): ${String(res.body.error ?? "no explanation")}${hint}`, 1, "upload_refused");
  }
  console.log(`${res.body.reused ? "Already known" : "Registered"}: ${path.basename(file)} in "${match.name}" as dataset ${String(res.body.datasetId)} (snapshot sha256:${String(res.body.snapshotSha256)}, ${String(res.body.bytes)} bytes). Its profile runs now.`);
  return 0;
}
