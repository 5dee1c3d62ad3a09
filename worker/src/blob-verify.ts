// A store blob is hashed again on its first use after a reboot: a crash can leave a file
// whose name was made durable before all its bytes were (a filesystem that reorders
// writes, a disk that lied about a flush), and such a blob would otherwise be trusted
// forever by its name. `index/verified/<sha256>` holds the boot id under which the blob
// was last hashed (written when it is stored, and after each re-check); a different boot
// id means "hash it again before use". A blob whose bytes no longer match is moved aside
// (`<sha256>.corrupt-<time>`, out of every lookup) so the next put stores it afresh.
import fs from "node:fs";
import path from "node:path";
import { WorkerError } from "./errors";
import { readText, sha256File, writeFileAtomic } from "./fsx";
import type { Home } from "./home";
import { bootId } from "./proc";

export function verifiedMarker(home: Home, sha: string): string {
  return home.p("index", "verified", sha);
}

/** Record that `sha`'s blob was hashed (and matched) under boot `boot`. */
export function markVerified(home: Home, sha: string, boot: string = bootId()): void {
  const marker = verifiedMarker(home, sha);
  fs.mkdirSync(path.dirname(marker), { recursive: true });
  writeFileAtomic(marker, boot + "\n");
}

/**
 * Make sure the blob `sha` still holds its bytes before a job uses it: trusted when it was
 * hashed under this boot, otherwise hashed now. Returns whether it was hashed; throws
 * `hash_mismatch` (after moving the blob aside) when the bytes changed.
 */
export async function verifyBlobForBoot(home: Home, sha: string, boot: string = bootId()): Promise<{ hashed: boolean }> {
  if (readText(verifiedMarker(home, sha))?.trim() === boot) return { hashed: false };
  const blob = home.blob(sha);
  const actual = await sha256File(blob);
  if (actual.sha256 !== sha) {
    const aside = `${blob}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    fs.renameSync(blob, aside);
    fs.rmSync(verifiedMarker(home, sha), { force: true });
    throw new WorkerError("hash_mismatch", `store blob ${sha} no longer matches its hash (it now hashes to ${actual.sha256}); moved aside to ${aside}; put or import the file again`, {
      expected: sha,
      actual: actual.sha256,
      path: aside,
    });
  }
  markVerified(home, sha, boot);
  return { hashed: true };
}
