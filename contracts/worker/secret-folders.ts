/**
 * Folders (and one file) that hold credentials, never read as data even below an allowed
 * folder: refused by the same rule when a folder is allowed (server/settings/root-rules.ts)
 * and when a file is read (worker/src/paths.ts). A path is secret when its components
 * contain one of these in sequence (`.config/gcloud` matches `/home/a/.config/gcloud/x`).
 */
export const SECRET_PLACES = [
  ".ssh", // SSH keys
  ".gnupg", // GnuPG keys
  ".aws", // AWS credentials
  ".azure", // Azure CLI tokens
  ".docker", // registry logins (config.json)
  ".kube", // cluster credentials
  ".config/gcloud", // Google Cloud credentials
  ".password-store", // pass
  ".local/share/keyrings", // GNOME keyring
  ".netrc", // a file: machine logins for curl, git, pip
] as const;

const FILES = new Set<string>([".netrc"]);
const SPLIT = SECRET_PLACES.map((p) => p.split("/"));

/**
 * The secret place `absolutePath` is, or is inside; null when it is neither. For a file
 * (`isFile`), a secret folder counts only among the folders above it and a secret file only
 * as its own name: a data file that happens to be called `.ssh` is not a key folder.
 */
export function secretPlaceOf(absolutePath: string, isFile = false): (typeof SECRET_PLACES)[number] | null {
  const parts = absolutePath.split("/").filter(Boolean);
  const folders = isFile ? parts.slice(0, -1) : parts;
  for (let i = 0; i < SPLIT.length; i++) {
    const place = SECRET_PLACES[i]!;
    if (FILES.has(place)) {
      if (parts.at(-1) === place) return place;
      continue;
    }
    const want = SPLIT[i]!;
    for (let at = 0; at + want.length <= folders.length; at++) {
      if (want.every((w, k) => folders[at + k] === w)) return place;
    }
  }
  return null;
}
