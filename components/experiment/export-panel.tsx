import { formatBytes } from "@/contracts/vocabulary";

interface ExportNamesView {
  fileName: string;
  loadingCommands: string[];
}

/**
 * The verified export: a download link (verified again on every request), its checksum,
 * and the same file name and commands the model card inside the archive gives.
 */
export function ExportPanel({ experimentId, sha256, bytes, names }: { experimentId: string; sha256: string; bytes: number | null; names: ExportNamesView | null | undefined }) {
  const fileName = names?.fileName ?? "the archive";
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>
        <a href={`/api/experiments/${encodeURIComponent(experimentId)}/export`} className="font-medium text-blue-800 underline" download={names?.fileName}>
          Download the model ({fileName}, {formatBytes(bytes)})
        </a>
      </p>
      <p className="flex flex-col gap-0.5">
        <span>SHA-256 checksum (also sent as the X-Checksum-SHA256 header):</span>
        <code className="break-all rounded bg-slate-100 p-1 text-xs" data-testid="export-checksum">
          {sha256}
        </code>
      </p>
      <p className="text-slate-700">Inside: the predictor, its pinned requirements, a model card, <code>verify.py</code> and <code>predict.py</code>. To check and open it:</p>
      {names && (
        <pre className="whitespace-pre-wrap break-all rounded bg-slate-100 p-2 text-xs" data-testid="export-commands">
          {names.loadingCommands.join("\n")}
        </pre>
      )}
    </div>
  );
}
