/**
 * Turns a host alias into what Trainyard connects with, by asking the OpenSSH client
 * itself (`ssh -G ALIAS`): the user's whole ~/.ssh/config applies (Host blocks, Match,
 * Include, defaults). The alias is validated first and passed as one argument, never
 * through a shell.
 */
import { execFile } from "node:child_process";
import { badInput } from "@/server/errors";
import { endpointFromSshG, ZSshAlias, type TSshEndpoint } from "./ssh-settings";

export interface ResolvedAlias {
  endpoint: TSshEndpoint;
  knownHostsFiles: string[];
}

export function knownHostsFilesFromSshG(output: string): string[] {
  const files: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = /^(userknownhostsfile|globalknownhostsfile) (.+)$/i.exec(line.trim());
    if (m) files.push(...m[2]!.split(/\s+/).filter((f) => f && f !== "none"));
  }
  return files.slice(0, 8);
}

export function resolveAlias(alias: string, sshConfig?: string): Promise<ResolvedAlias> {
  const parsed = ZSshAlias.safeParse(alias);
  if (!parsed.success) return Promise.reject(badInput(parsed.error.issues[0]!.message));
  const args = [...(sshConfig ? ["-F", sshConfig] : []), "-G", parsed.data];
  return new Promise((resolve, reject) => {
    execFile("ssh", args, { timeout: 10_000, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT") {
        return reject(
          badInput("The OpenSSH client (ssh) is not installed on this computer, so host aliases cannot be read; type the host, port, user and key instead."),
        );
      }
      if (err) return reject(badInput(`ssh -G ${parsed.data} failed: ${String(stderr).trim().split("\n").pop() || err.message}`));
      try {
        resolve({ endpoint: endpointFromSshG(stdout), knownHostsFiles: knownHostsFilesFromSshG(stdout) });
      } catch (e) {
        reject(badInput(`The alias ${parsed.data} cannot be used: ${(e as Error).message}`));
      }
    });
  });
}
