import type { AccessReport as TAccessReport } from "@/server/targets/ssh/ssh-target.schema";
import { formatBytes } from "@/contracts/vocabulary";

type Probe = NonNullable<TAccessReport["probe"]>;

/** One line of what a worker answered; the card shows the whole probe below. */
export function probeLine(p: Probe): string {
  const gpus = p.gpus.length === 0 ? "no GPU" : `${p.gpus.length} GPU${p.gpus.length === 1 ? "" : "s"}`;
  return `${p.cpus} CPUs, ${formatBytes(p.ramBytes)} memory, ${gpus}, worker ${p.version}`;
}

function Line({ term, ok, children }: { term: string; ok: boolean; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-2">
      <dt className="font-medium text-slate-900 sm:w-20 sm:shrink-0">{term}</dt>
      <dd className={ok ? "text-green-800" : "text-amber-900"}>{children}</dd>
    </div>
  );
}

/** What Test access found: Node, whether logging out can kill jobs, the installed worker, problems. */
export function AccessReport({ report, targetName }: { report: TAccessReport; targetName: string }) {
  if (report.hostKeyRefused) {
    return (
      <p role="status" className="text-sm text-amber-950">
        Test access stopped at the host key: Trainyard did not log in. Check the key below, accept it, and test access again.
      </p>
    );
  }
  const { node, install } = report;
  return (
    <section aria-label={`Access report for ${targetName}`} className="flex flex-col gap-3 rounded-md border border-slate-200 p-3 text-sm">
      <dl className="flex flex-col gap-1">
        <Line term="Node" ok={node.ok}>
          {node.ok ? `${node.version} — ok` : (node.message ?? `${node.version ?? "not found"} — not usable`)}
        </Line>
        <Line term="Worker" ok={install.current}>
          {!install.version && "not installed"}
          {install.version && install.current && `${install.version} installed, the current version`}
          {install.version && !install.current && `${install.version} installed, another version than this Trainyard's`}
        </Line>
      </dl>
      {report.sessionWarning && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
          {report.sessionWarning}
        </p>
      )}
      {report.problems.length > 0 ? (
        <div>
          <h5 className="font-semibold text-slate-900">To fix before training here</h5>
          <ul className="ml-5 list-disc" aria-label={`Problems on ${targetName}`}>
            {report.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p role="status" className="text-green-800">
          {targetName} is ready for training.
        </p>
      )}
      {report.probe && <p>Its worker answered: {probeLine(report.probe)}.</p>}
    </section>
  );
}
