/**
 * `trainyard computers list|add|remove` (issue 33) against the running server:
 *   list --json → [{"id", "name", "kind", "enabled", …}, …]
 *   add NAME --slurm --partition P [--ssh ALIAS] [--worker-home DIR] [--account A] [--qos Q] --json
 *     → the computer with its probe (`probe.slurm`: version, partitions, shared home)
 *   remove NAME
 * With --ssh, the cluster's login node is reached over SSH (an alias of the user's ssh config):
 * it is enrolled as an SSH server whose worker sends jobs to Slurm. Other SSH servers are added
 * on the Computers page (Settings → Computers), where Test access and Set up guide the owner
 * through host keys and installing the worker.
 */
import { CliError } from "../cli-error";
import { connect, withRetry } from "../api-client";
import { resolveComputer } from "../resolve-names";
import { parseSubcommand, requiredArg } from "../subcommand-args";

export const USAGE = `Usage:
  trainyard computers list [--json]
  trainyard computers add NAME --slurm --partition P [--ssh ALIAS] [--worker-home DIR] [--account A] [--qos Q] [--json]
  trainyard computers remove NAME
add --slurm enrols a Slurm cluster: each training on it runs as a Slurm job in partition P.
Without --ssh, this computer is its login node, and Slurm's commands find the cluster through
the server's SLURM_CONF (else /etc/slurm). With --ssh ALIAS, the login node is reached over
SSH (your ssh config and known_hosts apply) and the worker is installed there. The worker
home (default: in the data home; over SSH, ~/.trainyard) must be on a file system the compute
nodes share; adding runs a tiny job to check that. Other SSH servers are added on the
Computers page.`;

const need = requiredArg(USAGE);

export async function computersCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    slurm: { type: "boolean", default: false },
    partition: { type: "string" },
    "worker-home": { type: "string" },
    account: { type: "string" },
    qos: { type: "string" },
    ssh: { type: "string" },
  });
  const json = values.json;
  const print = (value: unknown, text: () => string) => console.log(json ? JSON.stringify(value, null, 2) : text());
  switch (sub) {
    case "list": {
      const conn = connect();
      const list = await withRetry(() => conn.api.targets.list.query());
      print(list, () =>
        list.map((t) => `${t.name}  (${t.kind}${t.enabled ? "" : ", disabled"})  ${t.unreachableSince ? `unreachable: ${t.lastError ?? ""}` : t.probedAt ? `checked ${t.probedAt}` : "not checked yet"}`).join("\n"),
      );
      return 0;
    }
    case "add": {
      const name = need(positionals[0], "NAME");
      if (!values.slurm) throw new CliError(`computers add takes --slurm (SSH servers are added on the Computers page).\n${USAGE}`, 2);
      const partition = need(values.partition, "--partition P");
      const conn = connect();
      if (!json) console.error(`Enrolling ${name}${values.ssh ? ` through ${values.ssh} (installing the worker there)` : ""} and running a probe job in partition ${partition}…`);
      const t = await conn.api.targets.addSlurm.mutate({
        name,
        partition,
        account: values.account ?? null,
        qos: values.qos ?? null,
        workerHome: values["worker-home"] ?? null,
        ssh: values.ssh ?? null,
      });
      const slurm = t.probe?.slurm ?? null;
      print(t, () =>
        [
          `Added ${t.name}: Slurm ${slurm?.version ?? "?"}, partition ${slurm?.partition ?? partition}.`,
          ...(slurm?.partitions ?? []).map((p) => `  ${p.name}: ${p.state}, ${p.nodes} node(s), ${p.cpusPerNode ?? "?"} CPUs and ${p.memoryMibPerNode ?? "?"} MiB each${p.gres ? `, ${p.gres}` : ""}`),
          slurm?.sharedHome?.visible ? `  A job on ${slurm.sharedHome.node} reached the worker home.` : "",
          ...(t.probe?.problems ?? []).map((p) => `Problem: ${p.message}`),
        ]
          .filter(Boolean)
          .join("\n"),
      );
      return 0;
    }
    case "remove": {
      const conn = connect();
      const id = await resolveComputer(conn, need(positionals[0], "NAME"));
      const r = await conn.api.targets.remove.mutate({ id });
      print(r, () => `Removed ${positionals[0]}. Its finished jobs keep their records; its worker home stays on disk.`);
      return 0;
    }
    default:
      throw new CliError(USAGE, 2);
  }
}
