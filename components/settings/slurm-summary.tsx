import type { TargetDetailView } from "@/server/targets/targets.schema";

type SlurmProbe = NonNullable<NonNullable<TargetDetailView["probe"]>["slurm"]>;

/** A Slurm computer's cluster as its probe saw it: version, partitions, and the shared home check. */
export function SlurmSummary({ slurm }: { slurm: SlurmProbe }) {
  return (
    <div>
      <h4 className="text-sm font-semibold text-slate-900">Slurm</h4>
      <p className="mt-1 text-sm text-slate-800">
        {slurm.version ? `Slurm ${slurm.version}` : "Slurm's commands were not found"}; jobs go to partition <span className="font-medium">{slurm.partition}</span>.
        {!slurm.controllerUp && slurm.version ? " Its controller did not answer at the last check." : ""}
      </p>
      {slurm.partitions.length > 0 && (
        <ul className="mt-1 flex flex-col gap-1 text-sm" aria-label="Slurm partitions">
          {slurm.partitions.map((p) => (
            <li key={p.name}>
              {p.name}: {p.state}, {p.nodes} node{p.nodes === 1 ? "" : "s"}, {p.cpusPerNode ?? "?"} CPUs and {p.memoryMibPerNode === null ? "?" : `${Math.round(p.memoryMibPerNode / 1024)} GiB`} each
              {p.gres ? `, ${p.gres}` : ""}
            </li>
          ))}
        </ul>
      )}
      {slurm.sharedHome && (
        <p className={`mt-1 text-sm ${slurm.sharedHome.visible ? "text-green-800" : "text-amber-900"}`}>
          {slurm.sharedHome.visible ? `A job on ${slurm.sharedHome.node ?? "a compute node"} reached the worker home.` : slurm.sharedHome.detail}
        </p>
      )}
    </div>
  );
}
