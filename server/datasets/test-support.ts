/**
 * Shared steps of the datasets integration tests (real server, real worker, real `data`
 * recipe): a training folder holding the real data recipe (copied, because Python
 * writes __pycache__ beside it), uploads over HTTP, and waiting for a profile.
 */
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";

export const TABULAR = path.join(REPO, "tests", "fixtures", "tabular");

/** A copy of the real data recipe and its helpers as the local worker's training dir. */
export function realDataTraining(home: TestHome): string {
  const dir = path.join(home.root, "training-real");
  const skip = (src: string) => !src.includes("__pycache__") && !src.includes(`${path.sep}tests`);
  mkdirSync(path.join(dir, "recipes"), { recursive: true });
  cpSync(path.join(REPO, "training", "recipes", "data"), path.join(dir, "recipes", "data"), { recursive: true, filter: skip });
  cpSync(path.join(REPO, "training", "trainyard_recipe"), path.join(dir, "trainyard_recipe"), { recursive: true, filter: skip });
  return dir;
}

/** `freshEnvs`: a new, empty environments folder, so the first data job builds the data tools (~25 s from local wheels). */
export async function startDataServer(home: TestHome, opts: { freshEnvs?: boolean } = {}): Promise<TestServer> {
  const env: Record<string, string> = { TRAINYARD_TRAINING_DIR: realDataTraining(home) };
  if (opts.freshEnvs) {
    env.TRAINYARD_ENVS_DIR = path.join(home.root, "envs");
    mkdirSync(env.TRAINYARD_ENVS_DIR);
  }
  return startTestServer({ home, env });
}

export interface UploadAnswer {
  status: number;
  body: { datasetId?: string; snapshotSha256?: string; bytes?: number; reused?: boolean; error?: string; code?: string };
}

export async function upload(server: TestServer, projectId: string, fileName: string, body: Uint8Array | string, encoding = "utf-8"): Promise<UploadAnswer> {
  const q = new URLSearchParams({ projectId, fileName, encoding });
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
