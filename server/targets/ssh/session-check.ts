/**
 * Whether logging out can kill jobs on a server: systemd-logind with
 * KillUserProcesses=yes ends every process of a user's session when the session ends,
 * the detached supervisor included, unless the user has lingering enabled
 * (`loginctl enable-linger USER`). Read through SFTP (files only, no command runs).
 */
import { readRemoteFile, statOrNull, type SftpSession } from "./sftp";

/** The effective KillUserProcesses value of logind.conf text(s), later files winning; null if unset. */
export function killUserProcessesOf(texts: string[]): boolean | null {
  let value: boolean | null = null;
  for (const text of texts) {
    let inLogin = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line.startsWith("[")) inLogin = line === "[Login]";
      const m = /^KillUserProcesses\s*=\s*(\S+)/.exec(line);
      if (inLogin && m) value = /^(yes|true|1|on)$/i.test(m[1]!);
    }
  }
  return value;
}

export function sessionWarning(a: { systemd: boolean; killUserProcesses: boolean | null; linger: boolean; user: string }): string | null {
  if (!a.systemd || a.killUserProcesses !== true || a.linger) return null;
  return (
    `This server's systemd-logind kills a user's processes at logout (KillUserProcesses=yes), and lingering is off for ${a.user}: ` +
    `a job could stop when the last SSH session of ${a.user} ends. Run \`loginctl enable-linger ${a.user}\` on the server (once) to keep jobs alive.`
  );
}

export async function checkSession(s: SftpSession, user: string): Promise<string | null> {
  const systemd = (await statOrNull(s, "/run/systemd/system")) !== null;
  if (!systemd) return null;
  const texts: string[] = [];
  // Files a system may not have (or not let this user read): missing means the default applies.
  const main = await readRemoteFile(s, "/etc/systemd/logind.conf").catch(() => null);
  if (main) texts.push(main.toString("utf8"));
  const dropins = await new Promise<string[]>((resolve) =>
    s.sftp.readdir("/etc/systemd/logind.conf.d", (err, list) => resolve(err ? [] : list.map((e) => e.filename).filter((f) => f.endsWith(".conf")).sort())),
  );
  for (const f of dropins) {
    const t = await readRemoteFile(s, `/etc/systemd/logind.conf.d/${f}`).catch(() => null);
    if (t) texts.push(t.toString("utf8"));
  }
  const linger = (await statOrNull(s, `/var/lib/systemd/linger/${user}`).catch(() => null)) !== null;
  return sessionWarning({ systemd, killUserProcesses: killUserProcessesOf(texts), linger, user });
}
