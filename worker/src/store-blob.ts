// Moving a verified file into the content-addressed store: its bytes are fsynced first
// (a rename can reach the disk before the data it names), then it is made read-only
// (0444), renamed into `store/<aa>/<sha256>` (atomic; a concurrent identical put just
// replaces equal bytes), the folder fsynced so the new name survives a crash, and the
// blob recorded as verified under this boot (blob-verify.ts).
import fs from "node:fs";
import path from "node:path";
import { markVerified } from "./blob-verify";
import { fsyncDir } from "./fsx";
import type { Home } from "./home";

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function storeBlob(home: Home, src: string, sha: string): string {
  const dest = home.blob(sha);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fsyncFile(src);
  fs.chmodSync(src, 0o444);
  fs.renameSync(src, dest);
  fsyncDir(path.dirname(dest));
  markVerified(home, sha);
  return dest;
}
