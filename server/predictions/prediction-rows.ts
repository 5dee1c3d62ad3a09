/**
 * The rows of a predict job's predictions.parquet (row_id, prediction, proba::<class>…)
 * as the "Try predictions" answer reads them. The "Predict a file" download is not built
 * here: the job writes it (joined.csv), beside the rows it read.
 */

export interface PredictionRow {
  rowId: number;
  prediction: unknown;
  probabilities: Record<string, number>;
}

/** Turns parquet records into prediction rows (sorted by row id) and the class list. */
export function toPredictionRows(records: Record<string, unknown>[]): { rows: PredictionRow[]; classes: string[] } {
  const classes = records[0] ? Object.keys(records[0]).filter((k) => k.startsWith("proba::")).map((k) => k.slice(7)) : [];
  const rows = records.map((r) => {
    const probabilities: Record<string, number> = {};
    for (const c of classes) probabilities[c] = Number(r[`proba::${c}`]);
    const pred = typeof r.prediction === "bigint" ? Number(r.prediction) : r.prediction;
    return { rowId: Number(r.row_id), prediction: pred, probabilities };
  });
  return { rows: rows.sort((a, b) => a.rowId - b.rowId), classes };
}
