"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { DataPreview } from "./data-preview";
import { formatBytes } from "@/contracts/vocabulary";
import { ProfileTable } from "./profile-table";
import { SetupProgressView } from "./setup-progress";
import { TargetChecks } from "./target-checks";

// The data recipe's refusals: the file itself is the problem, so profiling again would not help.
const REFUSALS = new Set(["empty_file", "header_only", "ragged_rows", "not_text", "invalid_utf8", "line_too_long", "too_many_columns", "gzip_too_large", "unreadable"]);

/** One dataset: first rows at once, then the profile (or why it could not be read), then the target checks. */
export function DatasetDetail({ datasetId }: { datasetId: string }) {
  const trpc = useTRPC();
  const dataset = useQuery(trpc.datasets.get.queryOptions({ id: datasetId }));
  const profiling = dataset.data?.status === "profiling";
  const status = useQuery({
    ...trpc.datasets.profileStatus.queryOptions({ id: datasetId }),
    enabled: profiling,
    refetchInterval: profiling ? 1500 : false,
  });
  const reprofile = useMutation(trpc.datasets.reprofile.mutationOptions());
  const d = dataset.data;
  if (dataset.isPending) return <Loading label="Loading the dataset…" />;
  if (dataset.error) return <ErrorMessage>Could not load the dataset: {errorText(dataset.error)}</ErrorMessage>;
  if (!d) return null;
  const profile = d.profile;
  return (
    <section aria-labelledby="dataset-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4" data-testid="dataset-detail">
      <div>
        <h2 id="dataset-heading" className="break-all text-lg font-semibold">
          {d.name}
        </h2>
        <p className="break-all text-sm text-slate-700">
          {formatBytes(d.bytes)} · {d.sourceKind === "path" ? `from ${d.sourceName}` : "uploaded"} · snapshot {d.snapshotSha256.slice(0, 12)}… · read as {d.encoding}
        </p>
      </div>
      <DataPreview datasetId={d.id} name={d.name} />
      <section aria-labelledby="profile-heading" className="flex flex-col gap-2">
        <h3 id="profile-heading" className="text-base font-semibold">
          Profile
        </h3>
        {d.status === "profiling" && (
          <>
            {status.data?.setup ? <SetupProgressView setup={status.data.setup} /> : <Loading label={`Profiling ${d.name}${status.data?.job ? ` (job ${status.data.job.state})` : ""}…`} />}
          </>
        )}
        {d.status === "failed" && (
          <div className="flex flex-col gap-2">
            <ErrorMessage>{d.error?.message ?? "The file could not be read."}</ErrorMessage>
            {d.error && !REFUSALS.has(d.error.code) && (
              <Button variant="secondary" className="self-start" onClick={() => reprofile.mutate({ id: d.id, encoding: d.encoding })}>
                Profile again
              </Button>
            )}
            {d.error?.code === "invalid_utf8" && (
              <Button variant="secondary" className="self-start" onClick={() => reprofile.mutate({ id: d.id, encoding: "latin-1" })}>
                Read it as Latin-1
              </Button>
            )}
            {reprofile.error && <ErrorMessage>{errorText(reprofile.error)}</ErrorMessage>}
          </div>
        )}
        {d.status === "ready" && profile && <ProfileTable profile={profile} name={d.name} />}
      </section>
      {d.status === "ready" && <TargetChecks datasetId={d.id} columns={d.columns.map((c) => c.name)} />}
    </section>
  );
}
