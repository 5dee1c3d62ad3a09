/**
 * Schemathesis (https://schemathesis.readthedocs.io) against a live server: it reads the
 * server's own OpenAPI document and sends generated requests, valid and invalid, to every
 * operation, checking that none answers 5xx and every answer matches the document. Its venv
 * is built once per requirements file into the recipe environments' folder
 * (TRAINYARD_TEST_ENVS_DIR), like the pytest venvs.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { testVenv } from "./test-venv";

/** The `st` executable, building its venv first when this requirements file has none ready yet. */
export async function schemathesisBin(): Promise<string> {
  return path.join(await testVenv("schemathesis", "tests/api-fuzz/requirements.txt"), "bin/st");
}

export interface FuzzRun {
  code: number | null;
  output: string;
}

export interface FuzzOptions {
  /** The server's address; the document is read from `documentPath` with the token. */
  baseUrl: string;
  /** An API token, or a deployment's key for that deployment's own document. */
  token: string;
  /** Default /api/openapi.json (every deployment); a deployment's own is /api/deployments/<id>/openapi.json. */
  documentPath?: string;
  /** Values for path parameters (e.g. a real deployment's id), so requests reach the routes' own logic. */
  pathValues?: Record<string, string>;
  maxExamples: number;
  /** Also check that every body valid by the document is taken (2xx): true where the document types the bodies exactly. */
  positiveAccepted?: boolean;
}

export async function runSchemathesis(opts: FuzzOptions): Promise<FuzzRun> {
  const bin = await schemathesisBin();
  const dir = mkdtempSync(path.join(os.tmpdir(), "schemathesis-"));
  const doc = await fetch(`${opts.baseUrl}${opts.documentPath ?? "/api/openapi.json"}`, { headers: { authorization: `Bearer ${opts.token}` } });
  if (!doc.ok) throw new Error(`the OpenAPI document answered ${doc.status}`);
  const docFile = path.join(dir, "openapi.json");
  writeFileSync(docFile, await doc.text());
  const config = path.join(dir, "schemathesis.toml");
  writeFileSync(config, `[parameters]\n${Object.entries(opts.pathValues ?? {}).map(([k, v]) => `"path.${k}" = ${JSON.stringify(v)}`).join("\n")}\n`);
  const args = [
    "--config-file", config, "run", docFile, "--url", opts.baseUrl,
    "-H", `Authorization: Bearer ${opts.token}`,
    "--checks", `not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance${opts.positiveAccepted ? ",positive_data_acceptance" : ""}`,
    "--phases", "examples,coverage,fuzzing",
    "--max-examples", String(opts.maxExamples),
    "--workers", "1",
    "--seed", "1",
    "--request-timeout", "30",
    "--generation-database", "none",
    "--no-color",
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}
