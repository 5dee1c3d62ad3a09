"use client";
/**
 * A data file for a project: POST /api/datasets/upload streams it into the store and
 * answers the dataset.
 */
import { uploadDataset } from "@/components/data/upload-xhr";
import { FileUpload, type SendFile } from "@/components/ui/file-upload";

const TABLE_FILES = { id: "wizard-upload", label: "Upload a file (CSV, TSV, gzip or Parquet)", accept: ".csv,.tsv,.txt,.gz,.parquet,text/csv" };

/** Defaults to a table file; the fine-tuning wizard passes its own id, label and accepted types (JSONL). */
export function UploadFile({
  projectId,
  onUploaded,
  id = TABLE_FILES.id,
  label = TABLE_FILES.label,
  accept = TABLE_FILES.accept,
}: {
  projectId: string;
  onUploaded: (datasetId: string) => void;
  id?: string;
  label?: string;
  accept?: string;
}) {
  const send: SendFile = (file, onProgress) => {
    const sending = uploadDataset(projectId, file, "utf-8", onProgress);
    return {
      abort: sending.abort,
      promise: sending.promise.then((answer) => {
        if (!answer.ok || !answer.datasetId) return { error: answer.error ?? `Upload failed (${answer.status}).` };
        onUploaded(answer.datasetId);
        return { done: `${file.name} uploaded${answer.reused ? " (this project already had these exact bytes; reusing them)" : ""}.` };
      }),
    };
  };
  return <FileUpload id={id} label={label} accept={accept} send={send} />;
}
