import type { TargetDetailView } from "@/server/targets/targets.schema";
import { formatBytes } from "@/contracts/vocabulary";
import { SlurmSummary } from "./slurm-summary";

type Probe = NonNullable<TargetDetailView["probe"]>;

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-slate-600">{term}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** What the worker reported about its computer: capacity, Python, environments. */
export function ProbeSummary({ probe }: { probe: Probe }) {
  const usable = probe.pythons.filter((p) => p.canCreateVenv);
  const chosen = probe.pythons.find((p) => p.path === probe.chosenPython) ?? usable[0];
  const fix = probe.pythons.find((p) => p.fix)?.fix;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Fact term="CPUs">{probe.cpus}</Fact>
        <Fact term="Memory">{formatBytes(probe.ramBytes)}</Fact>
        <Fact term="Disk free">{formatBytes(probe.diskFreeBytes)}</Fact>
        <Fact term="GPUs">{probe.gpus.length === 0 ? "none" : probe.gpus.length}</Fact>
      </dl>

      {probe.gpus.length > 0 && (
        <ul className="flex flex-col gap-1 text-sm" aria-label="GPUs">
          {probe.gpus.map((g) => (
            <li key={g.uuid}>
              GPU {g.index}: {g.name} — {formatBytes(g.memoryFreeBytes)} free of {formatBytes(g.memoryTotalBytes)}
            </li>
          ))}
        </ul>
      )}
      {probe.gpuProblem && <p className="text-sm text-slate-700">GPUs: {probe.gpuProblem}</p>}
      {probe.slurm && <SlurmSummary slurm={probe.slurm} />}

      <div>
        <h4 className="text-sm font-semibold text-slate-900">Python</h4>
        {chosen ? (
          <p className="mt-1 text-sm text-slate-800">
            Python {chosen.version} at <code className="break-all">{chosen.path}</code> — can create private environments.
          </p>
        ) : (
          <div role="alert" className="mt-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <p>No Python here can create private environments (venv), so recipes cannot run.</p>
            {fix && (
              <p className="mt-1">
                Fix: <code className="break-all">{fix}</code>
              </p>
            )}
          </div>
        )}
      </div>

      <div>
        <h4 className="text-sm font-semibold text-slate-900">Recipes and environments</h4>
        {probe.recipes.length === 0 ? (
          <p className="mt-1 text-sm text-slate-700">No recipes found in {probe.trainingDir}.</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1 text-sm" aria-label="Recipes">
            {probe.recipes.map((r) => (
              <li key={r.name} className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-medium">{r.name}</span>
                <span className="text-slate-600">v{r.version}</span>
                <span className={r.environmentReady ? "text-green-800" : "text-slate-700"}>
                  {r.environmentReady ? "environment ready" : "environment not built at the last check (a build in progress is listed under Jobs)"}
                </span>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-1 text-xs text-slate-600">
          {probe.environments.length} environment{probe.environments.length === 1 ? "" : "s"} installed in{" "}
          <code className="break-all">{probe.envsDir}</code>
        </p>
      </div>
      <p className="text-xs text-slate-600">
        Worker {probe.version} (protocol {probe.workerProtocol}) on {probe.hostname}, id <code className="break-all">{probe.workerId}</code>
      </p>
    </div>
  );
}
