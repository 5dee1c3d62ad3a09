/**
 * Reserving a holdout: the file is streamed into This computer's store like any upload
 * (hashed, checked as a table or as lines) but registered as no dataset, so no picker,
 * search, planner or agent is ever offered it. Its profile job reads it once — data.profile
 * for a table (its format, rows and columns), llm-lora.profile_examples for a JSONL file of
 * examples (its usable examples) — refusing a file that is neither; the row then pins those
 * bytes by SHA-256 for good. The same bytes again answer the same holdout.
 */
import { z } from "zod";
import { ZLoraExamples, ZProfile } from "@/contracts/recipes";
import { datasetKindOf, PROFILE_STEP, storedKind, type DatasetKind } from "@/server/datasets/dataset-kind";
import { parseStoredJson } from "@/server/db/stored-json";
import type { Db } from "@/server/db/client";
import { localTarget } from "@/server/datasets/local-store";
import { storeUpload } from "@/server/datasets/store-upload";
import { readOutput, type OutputJob } from "@/server/jobs/read-output";
import { projectsService } from "@/server/projects/projects.service";
import { settingsService } from "@/server/settings/settings.service";
import { runJobToEnd } from "@/server/jobs/job-to-end";
import { holdoutsRepository, type HoldoutRow } from "./holdouts.repository";
import { ZHoldoutUploadQuery, type HoldoutView, type THoldoutUploadQuery } from "./holdouts.schema";

const ZColumns = z.array(z.string());

export function holdoutView(h: HoldoutRow): HoldoutView {
  return {
    id: h.id,
    projectId: h.projectId,
    name: h.name,
    sha256: h.sha256,
    bytes: Number(h.bytes),
    fileName: h.fileName,
    kind: storedKind(h.kind),
    rows: h.rows,
    columns: parseStoredJson(ZColumns, h.columns) ?? [],
    createdAt: h.createdAt.toISOString(),
  };
}

export async function createHoldoutFromUpload(db: Db, raw: THoldoutUploadQuery, body: AsyncIterable<Uint8Array>, contentLength: number | null): Promise<HoldoutView> {
  const q = ZHoldoutUploadQuery.parse(raw);
  await projectsService(db).get(q.projectId);
  const kind = datasetKindOf(q.fileName, q.kind);
  const limits = await settingsService(db).values();
  const up = await storeUpload(db, body, {
    fileName: q.fileName,
    maxBytes: limits.uploadMaxBytes,
    capHint: " (Settings → Data)",
    expectedBytes: contentLength,
    content: { shape: kind === "examples" ? "lines" : "table", encoding: q.encoding, maxLineBytes: limits.maxLineBytes, maxColumns: limits.maxColumns },
  });
  const repo = holdoutsRepository(db);
  const known = await repo.findBySha(q.projectId, up.sha256);
  if (known) return { ...holdoutView(known), reused: true };
  const target = await localTarget(db);
  const reader = READERS[kind];
  const job = await runJobToEnd(db, {
    opId: `holdout.profile:${q.projectId}:${up.sha256}:${q.encoding}${kind === "examples" ? ":examples" : ""}`,
    targetId: target.id,
    recipe: PROFILE_STEP[kind].recipe,
    job: PROFILE_STEP[kind].job,
    input: reader.input(`sha256:${up.sha256}`, q),
    label: `Reading the holdout ${q.fileName}`,
    // A first use may build the data tools (or the fine-tuning tools) first.
    timeoutMs: 20 * 60_000,
    ensureEnvironment: true,
  });
  const described = await reader.describe(db, job);
  const row = await repo
    .create({ projectId: q.projectId, name: q.name ?? q.fileName, sha256: up.sha256, bytes: up.bytes, fileName: q.fileName, kind, ...described })
    // The same bytes reserved twice at once: the first row stands.
    .catch(async (err: unknown) => (await repo.findBySha(q.projectId, up.sha256)) ?? Promise.reject(err));
  return holdoutView(row);
}

type Described = { format: string; rows: number; columns: string };

/** Per kind of file: its profile job's input, and what the holdout row records of its answer. */
const READERS: Record<DatasetKind, { input: (ref: string, q: THoldoutUploadQuery) => Record<string, unknown>; describe: (db: Db, job: OutputJob) => Promise<Described> }> = {
  table: {
    input: (ref, q) => ({ dataset: ref, fileName: q.fileName, encoding: q.encoding }),
    async describe(db, job) {
      const profile = await readOutput(db, job, PROFILE_STEP.table.output, ZProfile);
      return { format: JSON.stringify(profile.tableFormat), rows: profile.rows, columns: JSON.stringify(profile.columns.map((c) => c.name)) };
    },
  },
  examples: {
    input: (ref) => ({ data: ref, maxPreview: 1 }),
    async describe(db, job) {
      const examples = await readOutput(db, job, PROFILE_STEP.examples.output, ZLoraExamples);
      return { format: "null", rows: examples.lines.usable, columns: "[]" };
    },
  },
};
