/**
 * Shared steps of the datasets integration tests (real server, real worker, real `data`
 * recipe): a training folder holding the real data recipe (copied, because Python
 * writes __pycache__ beside it), uploads over HTTP, and waiting for a profile.
 */
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";

export const TABULAR = path.join(REPO, "tests", "fixtures", "tabular");

/**
 * A copy of real recipes (default: the data recipe) and their helpers as the local worker's
 * training dir; llm_lora also needs the export recipe, the evaluation package it imports and its evaluator (evaluation_lm).
 */
export function realDataTraining(home: TestHome, recipes: string[] = ["data"]): string {
  const dir = path.join(home.root, "training-real");
  const skip = (src: string) => !src.includes("__pycache__") && !src.includes(`${path.sep}tests`);
  mkdirSync(path.join(dir, "recipes"), { recursive: true });
  for (const r of recipes) cpSync(path.join(REPO, "training", "recipes", r), path.join(dir, "recipes", r), { recursive: true, filter: skip });
  const packages = recipes.includes("llm_lora") ? ["trainyard_recipe", "evaluation", "evaluation_lm"] : ["trainyard_recipe"];
  for (const p of packages) cpSync(path.join(REPO, "training", p), path.join(dir, p), { recursive: true, filter: skip });
  return dir;
}

/**
 * `freshEnvs`: a new, empty environments folder, so the first data job builds the data tools
 * (~25 s from local wheels): on first use, not ahead at start (TRAINYARD_PREPARE_AHEAD=0;
 * first-setup.integration.test.ts covers ahead).
 * `recipes`: the real recipes the worker gets (default: data).
 */
export async function startDataServer(home: TestHome, opts: { freshEnvs?: boolean; recipes?: string[] } = {}): Promise<TestServer> {
  const env: Record<string, string> = { TRAINYARD_TRAINING_DIR: realDataTraining(home, opts.recipes) };
  if (opts.freshEnvs) {
    env.TRAINYARD_ENVS_DIR = path.join(home.root, "envs");
    env.TRAINYARD_PREPARE_AHEAD = "0";
    mkdirSync(env.TRAINYARD_ENVS_DIR);
  }
  return startTestServer({ home, env });
}

export interface UploadAnswer {
  status: number;
  body: { datasetId?: string; snapshotSha256?: string; bytes?: number; reused?: boolean; error?: string; code?: string };
}

export async function upload(server: TestServer, projectId: string, fileName: string, body: Uint8Array | string, encoding = "utf-8", kind?: "table" | "examples"): Promise<UploadAnswer> {
  const q = new URLSearchParams({ projectId, fileName, encoding, ...(kind ? { kind } : {}) });
  const res = await fetch(`${server.url}/api/datasets/upload?${q}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: (typeof body === "string" ? Buffer.from(body) : body) as unknown as BodyInit,
  });
  return { status: res.status, body: (await res.json()) as UploadAnswer["body"] };
}

export async function waitForProfile(server: TestServer, datasetId: string, timeoutMs = 120_000) {
  return waitFor(`dataset ${datasetId} to finish profiling`, async () => {
    const d = await server.client.datasets.get.query({ id: datasetId });
    return d.status === "profiling" ? undefined : d;
  }, timeoutMs, 250);
}

/** Files left in the worker's incoming/ folder (upload temp files and parts). */
export function incomingLeftovers(home: TestHome): string[] {
  try {
    return readdirSync(path.join(home.workerHome, "incoming"));
  } catch {
    return [];
  }
}
