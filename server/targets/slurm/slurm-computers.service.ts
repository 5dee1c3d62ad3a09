/**
 * Enrolling a Slurm cluster whose login node is This computer: its worker gets a home of
 * its own (on a file system the compute nodes share), the controller writes that worker's
 * config.json (the recipes, environments and the Slurm settings), and the first probe runs
 * a tiny job on a compute node to see that it reaches the home. Slurm's commands find the
 * cluster the usual way: the server's SLURM_CONF, else Slurm's default configuration.
 */
import path from "node:path";
import { controllerRuntime } from "@/server/config/runtime";
import { getDb, type Db } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { localWorkerSettings } from "../local/local-target";
import { mergeWorkerConfig, readWorkerConfig } from "../local/worker-config-file";
import { assertComputerNameFree } from "../computer-names";
import { targetsRepository } from "../targets.repository";
import { targetsService } from "../targets.service";
import type { TargetDetailView } from "../targets.schema";
import { ZAddSlurmInput, ZSlurmTargetConfig, type TAddSlurmInput } from "./slurm-target.schema";

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "slurm";

export function slurmComputersService(db: Db = getDb()) {
  const repo = targetsRepository(db);
  const targets = targetsService(db);

  async function add(raw: TAddSlurmInput): Promise<TargetDetailView> {
    const input = ZAddSlurmInput.parse(raw);
    if (input.ssh) {
      throw badInput(
        `A Slurm cluster reached over SSH (--ssh ${input.ssh}) is not supported yet. Run Trainyard on a login node of the cluster and add it there without --ssh, or add the login node as an SSH server to train on that node itself.`,
      );
    }
    await assertComputerNameFree(repo, input.name);
    const rt = controllerRuntime();
    const workerHome = input.workerHome ?? path.join(rt.home.root, "computers", slug(input.name));
    const local = localWorkerSettings(rt);
    const config = ZSlurmTargetConfig.parse({
      workerHome,
      slurm: { partition: input.partition, account: input.account, qos: input.qos, slurmConf: process.env.SLURM_CONF ? path.resolve(process.env.SLURM_CONF) : null },
    });
    mergeWorkerConfig(workerHome, {
      trainingDir: local.trainingDir,
      buildEnvScript: local.buildEnvScript,
      // Environments are built where the compute nodes see them: in its own home, unless this server shares one folder for all.
      envsDir: rt.config.envsDir ?? path.join(workerHome, "envs"),
      slurm: config.slurm,
      // The owner's allowed folders (Settings → Data), as This computer's worker has them.
      allowedRoots: readWorkerConfig(rt.home.workerHome).allowedRoots ?? [],
    });
    const t = await repo.create(input.name, "slurm", JSON.stringify(config));
    publish({ type: "target.changed", targetId: t.id });
    return targets.probe(t.id, { checkSharedHome: true });
  }

  return { add };
}
