/**
 * Enrolling a Slurm cluster. Its login node is This computer, or a computer reached over
 * SSH (`--ssh ALIAS`). On This computer its worker gets a home of its own (on a file system
 * the compute nodes share) and the controller writes that worker's config.json (the
 * recipes, environments and the Slurm settings); over SSH it is an SSH server whose Set up
 * writes the Slurm settings into its worker's config. Either way the first probe runs a tiny
 * job on a compute node to see that it reaches the worker home. Slurm's commands find the
 * cluster the usual way: SLURM_CONF (the server's, or the login node's environment), else
 * Slurm's default configuration.
 */
import path from "node:path";
import type { z } from "zod";
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
import { sshComputersService } from "../ssh/ssh-computers.service";
import { DEFAULT_WORKER_DIR } from "../ssh/ssh-target.schema";
import { ZAddSlurmInput, ZSlurmTargetConfig, type TAddSlurmInput } from "./slurm-target.schema";

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "slurm";

export function slurmComputersService(db: Db = getDb()) {
  const repo = targetsRepository(db);
  const targets = targetsService(db);

  async function add(raw: TAddSlurmInput): Promise<TargetDetailView> {
    const input = ZAddSlurmInput.parse(raw);
    await assertComputerNameFree(repo, input.name);
    if (input.ssh) return addOverSsh(input, input.ssh);
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

  /**
   * A login node reached over SSH: an SSH server (its host key checked against the known_hosts
   * files the user's ssh config names), set up with the Slurm settings. Anything short of a
   * working worker removes the computer again, saying why: a half-enrolled cluster is not
   * left behind under the name.
   */
  async function addOverSsh(input: z.infer<typeof ZAddSlurmInput>, alias: string): Promise<TargetDetailView> {
    const ssh = sshComputersService(db);
    const slurm = { partition: input.partition, account: input.account, qos: input.qos, slurmConf: null };
    const added = await ssh.add({ name: input.name, connection: { mode: "alias", alias }, workerDir: input.workerHome ?? DEFAULT_WORKER_DIR, nodePath: null }, slurm);
    try {
      const access = await ssh.testAccess(added.id);
      if (access.hostKeyRefused) {
        throw badInput(`${access.hostKeyRefused} Check that key, trust it (connect once with \`ssh ${alias}\`, which records it in your known_hosts), then add the cluster again.`);
      }
      if (!access.node.ok) throw badInput(access.node.message ?? `Node.js on ${alias} could not be checked.`);
      await ssh.setup(added.id);
    } catch (err) {
      await ssh.remove(added.id);
      throw err;
    }
    return targets.get(added.id);
  }

  return { add };
}
