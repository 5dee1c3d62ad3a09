/**
 * Predictions with an experiment's model: one row typed in a form ("Try predictions") or
 * a CSV file of new rows ("Predict a file"). The export archive is verified first — the
 * same check as the download — so a damaged or altered export is never used.
 */
import { rm } from "node:fs/promises";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, unavailable } from "@/server/errors";
import { experimentsService } from "@/server/experiments/experiments.service";
import { csvLine } from "@/server/tables/csv";
import { readJoinedCsv, requireVerifiedExport, runPredictJob, stageBytes, stageFile } from "./predict-job";
import { receivePredictFile, type PredictUpload } from "./predict-upload";
import { PREDICT_FILE_TIMEOUT_MS, TRY_ROW_TIMEOUT_MS, ZTryRowInput, type TTryRowInput, type TryRowResult } from "./predictions.schema";

/** The experiment's model, after its export passed verification. */
export async function verifiedModel(db: Db, experimentId: string) {
  const exp = await experimentsService(db).get(experimentId);
  if (exp.status !== "succeeded" || !exp.results || !exp.exportSha256) {
    throw conflict(`"${exp.name}" has no finished model yet (it is ${exp.status}); predictions need a succeeded experiment.`);
  }
  const modelSha256 = exp.results.export.modelSha256;
  if (!/^[0-9a-f]{64}$/.test(modelSha256)) throw unavailable(`"${exp.name}" has no recorded model hash; run it again.`);
  await requireVerifiedExport(exp.exportSha256, `The model of "${exp.name}"`);
  return { exp, modelSha256, features: exp.results.featureSchema?.features ?? [] };
}

export function predictionsService(db: Db = getDb()) {
  return {
    async tryRow(raw: TTryRowInput): Promise<TryRowResult> {
      const input = ZTryRowInput.parse(raw);
      const { exp, modelSha256, features } = await verifiedModel(db, input.experimentId);
      if (!features.length) throw unavailable(`"${exp.name}" has no feature schema, so a row cannot be typed for it.`);
      const names = features.map((f) => f.name);
      const unknown = Object.keys(input.values).filter((k) => !names.includes(k));
      if (unknown.length) throw badInput(`The model of "${exp.name}" has no feature named ${unknown.join(", ")}.`);
      const csv = `${csvLine(names)}\n${csvLine(names.map((n) => input.values[n] ?? ""))}\n`;
      const sha = await stageBytes(db, Buffer.from(csv, "utf8"), "the row to predict");
      const out = await runPredictJob(db, { targetId: exp.targetId, modelSha256, featuresSha256: sha, timeoutMs: TRY_ROW_TIMEOUT_MS, label: "The prediction" });
      const row = out.rows[0];
      if (!row) throw unavailable(`The prediction job ${out.jobId} returned no row.`);
      return {
        jobId: out.jobId,
        prediction: row.prediction,
        probabilities: Object.entries(row.probabilities)
          .map(([label, probability]) => ({ label, probability }))
          .sort((a, b) => b.probability - a.probability),
        seconds: out.seconds,
      };
    },

    /** Receives a "Predict a file" upload (predict-upload.ts) and predicts it; returns the CSV to download. */
    async predictUpload(experimentId: string, u: PredictUpload): Promise<{ csv: string; rows: number; jobId: string }> {
      const file = await receivePredictFile(db, u);
      return this.predictFile({ experimentId, ...file });
    },

    /** Predicts an uploaded CSV already streamed to `tmpPath`; returns the CSV to download. */
    async predictFile(a: { experimentId: string; tmpPath: string; sha256: string; bytes: number; fileName: string }): Promise<{ csv: string; rows: number; jobId: string }> {
      let staged = false;
      try {
        const { exp, modelSha256 } = await verifiedModel(db, a.experimentId);
        await stageFile(db, a.tmpPath, a.sha256, a.bytes, a.fileName);
        staged = true;
        const out = await runPredictJob(db, { targetId: exp.targetId, modelSha256, featuresSha256: a.sha256, timeoutMs: PREDICT_FILE_TIMEOUT_MS, label: `Predicting ${a.fileName}` });
        return { csv: await readJoinedCsv(db, out), rows: out.rows.length, jobId: out.jobId };
      } finally {
        if (!staged) await rm(a.tmpPath, { force: true });
      }
    },
  };
}
