/**
 * What an SSH training computer is reached with, validated before anything runs. The
 * worker directory and Node's path appear in the one exec command, so they are limited
 * to a safe character set; the exec command is built from them and fixed words only,
 * never from a shell string, an alias or a model name (every other datum goes on stdin).
 */
import { z } from "zod";

/** Absolute POSIX path of safe characters only: letters, digits, `/ . _ - +` and `~/` at the start. */
const SAFE_PATH = /^(~\/|\/)[A-Za-z0-9._+\-/]*$/;
/** An alias from ~/.ssh/config, used only as an argument to `ssh -G` (never a shell word). */
const SAFE_ALIAS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/;

export const ZSafeRemotePath = z
  .string()
  .min(2)
  .max(255)
  .refine((p) => SAFE_PATH.test(p), "Use an absolute path (or ~/…) of letters, digits and / . _ - + only.")
  .refine((p) => !p.split("/").includes(".."), "The path may not contain '..'.");

export const ZSshAlias = z.string().refine((a) => SAFE_ALIAS.test(a), "An SSH host alias is letters, digits, '.', '_' and '-'.");

export const ZSshEndpoint = z.object({
  host: z.string().min(1).max(253).regex(/^[A-Za-z0-9.:_-]+$/, "A host name or address."),
  port: z.number().int().min(1).max(65535).default(22),
  user: z.string().min(1).max(64).regex(/^[A-Za-z0-9._-]+$/, "A user name of letters, digits, '.', '_' and '-'."),
  identityFiles: z.array(z.string().min(1).max(4096)).max(16).default([]),
});
export type TSshEndpoint = z.infer<typeof ZSshEndpoint>;

/** The exec command: `<node> <workerDir>/trainyard-worker.mjs control --home <workerDir>/home`. */
export function workerExecCommand(workerDir: string, nodePath = "node"): string {
  const dir = ZSafeRemotePath.parse(workerDir).replace(/\/+$/, "");
  const node = nodePath === "node" ? "node" : ZSafeRemotePath.parse(nodePath);
  return [node, `${dir}/trainyard-worker.mjs`, "control", "--home", `${dir}/home`].join(" ");
}

/**
 * Reads the settings `ssh -G ALIAS` prints (the user's whole config applied) into an
 * endpoint. Only the fields Trainyard uses; ProxyJump and the like are refused with a
 * message rather than silently ignored.
 */
export function endpointFromSshG(output: string): TSshEndpoint {
  const values = new Map<string, string[]>();
  for (const line of output.split(/\r?\n/)) {
    const space = line.indexOf(" ");
    if (space <= 0) continue;
    const key = line.slice(0, space).toLowerCase();
    values.set(key, [...(values.get(key) ?? []), line.slice(space + 1).trim()]);
  }
  const one = (k: string) => values.get(k)?.[0];
  const jump = one("proxyjump");
  if (jump && jump !== "none") throw new Error(`This host is reached through ProxyJump ${jump}, which Trainyard does not follow yet.`);
  const command = one("proxycommand");
  if (command && command !== "none") throw new Error("This host is reached through a ProxyCommand, which Trainyard does not run.");
  return ZSshEndpoint.parse({
    host: one("hostname"),
    port: Number(one("port") ?? 22),
    user: one("user"),
    identityFiles: values.get("identityfile") ?? [],
  });
}
