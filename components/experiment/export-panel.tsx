import { formatBytes } from "./format";

/** The verified export: a download link (verified again on every request) and its checksum. */
export function ExportPanel({ experimentId, sha256, bytes }: { experimentId: string; sha256: string; bytes: number | null }) {
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>
        <a href={`/api/experiments/${encodeURIComponent(experimentId)}/export`} className="font-medium text-blue-800 underline" download>
          Download the model (export.tar.gz, {formatBytes(bytes)})
        </a>
      </p>
      <p className="flex flex-col gap-0.5">
        <span>SHA-256 checksum (also sent as the X-Checksum-SHA256 header):</span>
        <code className="break-all rounded bg-slate-100 p-1 text-xs" data-testid="export-checksum">
          {sha256}
        </code>
      </p>
      <p className="text-slate-700">
        Inside: the predictor, its pinned requirements, a model card, <code>verify.py</code> and <code>predict.py</code>. Check it with <code>sha256sum</code>, then <code>python verify.py --extract export.tar.gz model/</code>.
      </p>
    </div>
  );
}
