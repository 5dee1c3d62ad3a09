/** What the deployments integration tests share: the CLI with --json, a call to a deployment's route with a key, penguins rows. */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { z } from "zod";
import { upload, waitForProfile } from "@/server/datasets/test-support";
import { runCli } from "@/server/testing/cli-process";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";
import { REPO, waitFor, type TestServer } from "@/server/testing/server-harness";

/** Every file under `dir` whose bytes hold `text` (symbolic links are not followed). */
export function filesContaining(dir: string, text: string): string[] {
  const needle = Buffer.from(text);
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return filesContaining(full, text);
    return e.isFile() && readFileSync(full).includes(needle) ? [full] : [];
  });
}

export const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
export const ROW = { island: "Torgersen", bill_length_mm: 39.1, bill_depth_mm: 18.7, flipper_length_mm: 181, body_mass_g: 3750, sex: "male", year: 2007 };
export const GENTOO = { island: "Biscoe", bill_length_mm: 47.5, bill_depth_mm: 14.2, flipper_length_mm: 215, body_mass_g: 5400, sex: "female", year: 2008 };

/** What `trainyard deploy --json` prints for a tabular deployment, as far as the tests read it. */
export const ZMade = z.object({ id: z.string().min(1), urls: z.object({ predict: z.string(), health: z.string() }) });

/** `trainyard ARGS --json` against the server at `url`: exit code, the parsed object, stderr. */
export async function cliJson(url: string, args: string[]) {
  const r = await runCli(url, [...args, "--json"]).done;
  return { code: r.code, json: JSON.parse(r.stdout || "{}") as Record<string, unknown> & { error?: { code: string } }, stderr: r.stderr };
}

/** A GET (no body) or a JSON POST to a deployment's route, with `key` as its Bearer key when given. */
export const call = (url: string, key: string | null, body?: unknown) =>
  fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

/** Uploads penguins into `projectId` and trains a Quick baseline on species to success; its ids. */
export async function trainedPenguins(server: TestServer, projectId: string): Promise<{ datasetId: string; experimentId: string }> {
  const uploaded = await upload(server, projectId, "penguins.csv", readFileSync(PENGUINS));
  const datasetId = uploaded.body.datasetId!;
  expect((await waitForProfile(server, datasetId)).status).toBe("ready");
  return { datasetId, experimentId: await trainedOn(server, projectId, datasetId) };
}

/**
 * The same Quick baseline (one LightGBM, deterministic: again, the same score) trained on an
 * uploaded penguins dataset to success; its id. Species by default; `target` picks another
 * multiclass column (island).
 */
export async function trainedOn(server: TestServer, projectId: string, datasetId: string, target: "species" | "island" = "species"): Promise<string> {
  const exp = await server.client.experiments.start.mutate({
    opId: randomUUID(),
    projectId,
    datasetId,
    settings: { target, task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 2, hyperparameters: ONE_LIGHTGBM },
  });
  const done = await waitFor("the training to end", async () => {
    const d = await server.client.experiments.get.query({ id: exp.id });
    return d.status !== "running" ? d : undefined;
  }, 400_000, 1000);
  expect(done.status, done.note ?? "").toBe("succeeded");
  return exp.id;
}
