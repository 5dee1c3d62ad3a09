/**
 * Which folders may be an allowed root (a folder whose files can be registered by path).
 * An allowed root grants read access to everything under it through `registerPath` and
 * `preview`, so a few places are refused whatever the owner types:
 *
 * - `/` (the whole disk);
 * - system folders, anything inside them, and any folder that contains one (`/var`
 *   contains `/var/lib`): /etc, /proc, /sys, /dev, /boot and /run (configuration,
 *   kernel and process state, devices, runtime secrets), /usr, /bin, /sbin and /lib*
 *   (installed programs: no one keeps training data there) and /var/lib (service state:
 *   databases, container images, keys);
 * - credential folders (contracts/worker/secret-folders.ts: `~/.ssh`, `.aws`, `.gnupg`,
 *   `.docker`, `.kube`, `.config/gcloud`, password stores…), anything inside one, by name
 *   or through a link; a folder that merely contains one (the home folder) is not refused;
 * - Trainyard's own home (TRAINYARD_HOME: the database, sessions, the store), anything
 *   inside it, and any folder that contains it.
 *
 * Every check runs on the normalised path as typed and again on its real path (symlinks
 * resolved), and the protected places are compared in both forms too (on macOS /etc is
 * really /private/etc; a home may be a symlink). Pure apart from realpath.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { SECRET_PLACES, secretPlaceOf } from "@/contracts/worker/secret-folders";

/** System folders refused as roots, inside roots, and as containers of roots. */
export const SYSTEM_FOLDERS = ["/etc", "/proc", "/sys", "/dev", "/boot", "/run", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/var/lib"] as const;

export interface RootRuleContext {
  /** TRAINYARD_HOME of this server. */
  trainyardHome: string;
  /** The home folder of the user the server runs as (os.homedir()). */
  userHome: string;
}

function realOrSame(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The path itself and its real path, when they differ. */
function forms(p: string): string[] {
  const lexical = path.resolve(p);
  const real = realOrSame(lexical);
  return real === lexical ? [lexical] : [lexical, real];
}

/** True when `child` is `parent` or lies below it. */
export function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Why `root` may not be an allowed root, in words for the settings form, or null when it
 * may. `root` must be absolute; it need not exist (then only its typed form is checked).
 */
export function rootRefusal(root: string, ctx: RootRuleContext): string | null {
  const candidates = forms(root);
  const shown = (c: string) => (c === candidates[0] ? "" : ` (it leads to ${c})`);
  for (const c of candidates) {
    if (c === "/") return `it is the whole disk (/)${shown(c)}; name the folder that holds your data`;
  }
  for (const c of candidates) {
    for (const sys of SYSTEM_FOLDERS) {
      for (const s of forms(sys)) {
        if (isWithin(c, s)) return `it is the system folder ${sys} or inside it${shown(c)}; system folders hold configuration, programs and keys, not data`;
        if (isWithin(s, c)) return `it contains the system folder ${sys}${shown(c)}; name a folder that holds only your data`;
      }
    }
  }
  for (const c of candidates) {
    // The same rule the worker applies to every file it reads (contracts/worker/secret-folders.ts).
    const secret = secretPlaceOf(c) ?? SECRET_PLACES.find((p) => forms(path.join(ctx.userHome, p)).some((s) => isWithin(c, s)));
    if (secret) return `it is a credentials folder (${secret}) or inside one${shown(c)}; it holds keys or passwords, not data`;
  }
  const home = forms(ctx.trainyardHome);
  for (const c of candidates) {
    for (const h of home) {
      if (isWithin(c, h)) return `it is inside Trainyard's own home (${ctx.trainyardHome})${shown(c)}, which holds its database, sign-in sessions and store`;
      if (isWithin(h, c)) {
        return `it contains Trainyard's own home (${ctx.trainyardHome})${shown(c)}, which holds its database, sign-in sessions and store; name the folder below it that holds your data, or set TRAINYARD_HOME to a folder outside it`;
      }
    }
  }
  return null;
}
