/**
 * Reserving a holdout: the file is streamed into This computer's store like any upload
 * (hashed, checked as a table) but registered as no dataset, so no picker, search, planner
 * or agent is ever offered it. data.profile reads it once, to refuse a file that is not a
 * table and to record its format, rows and columns; the row then pins those bytes by
 * SHA-256 for good. The same bytes again answer the same holdout.
 */
import { z } from "zod";
import { ZProfile } from "@/contracts/recipes";
import { parseStoredJson } from "@/server/db/stored-json";
import type { Db } from "@/server/db/client";
import { localTarget } from "@/server/datasets/local-store";
import { storeUpload } from "@/server/datasets/store-upload";
import { readOutput } from "@/server/jobs/read-output";
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
    rows: h.rows,
    columns: parseStoredJson(ZColumns, h.columns) ?? [],
    createdAt: h.createdAt.toISOString(),
  };
}

export async function createHoldoutFromUpload(db: Db, raw: THoldoutUploadQuery, body: AsyncIterable<Uint8Array>, contentLength: number | null): Promise<HoldoutView> {
  const q = ZHoldoutUploadQuery.parse(raw);
  await projectsService(db).get(q.projectId);
  const limits = await settingsService(db).values();
  const up = await storeUpload(db, body, {
    fileName: q.fileName,
    maxBytes: limits.uploadMaxBytes,
    capHint: " (Settings → Data)",
    expectedBytes: contentLength,
    content: { shape: "table", encoding: q.encoding, maxLineBytes: limits.maxLineBytes, maxColumns: limits.maxColumns },
  });
  const repo = holdoutsRepository(db);
  const known = await repo.findBySha(q.projectId, up.sha256);
  if (known) return { ...holdoutView(known), reused: true };
  const target = await localTarget(db);
  const job = await runJobToEnd(db, {
    opId: `holdout.profile:${q.projectId}:${up.sha256}:${q.encoding}`,
    targetId: target.id,
    recipe: "data",
    job: "profile",
    input: { dataset: `sha256:${up.sha256}`, fileName: q.fileName, encoding: q.encoding },
    label: `Reading the holdout ${q.fileName}`,
    // A first use may build the data tools first.
    timeoutMs: 20 * 60_000,
    ensureEnvironment: true,
  });
  const profile = await readOutput(db, job, "profile.json", ZProfile);
  const row = await repo
    .create({
      projectId: q.projectId,
      name: q.name ?? q.fileName,
      sha256: up.sha256,
      bytes: up.bytes,
      fileName: q.fileName,
      format: JSON.stringify(profile.tableFormat),
      rows: profile.rows,
      columns: JSON.stringify(profile.columns.map((c) => c.name)),
    })
    // The same bytes reserved twice at once: the first row stands.
    .catch(async (err: unknown) => (await repo.findBySha(q.projectId, up.sha256)) ?? Promise.reject(err));
  return holdoutView(row);
}
