// Moving a verified file into the content-addressed store: read-only (0444), renamed into
// `store/<aa>/<sha256>` (atomic; a concurrent identical put just replaces equal bytes),
// and the folder fsynced so the new name survives a crash.
import fs from "node:fs";
import path from "node:path";
import { fsyncDir } from "./fsx";
import type { Home } from "./home";

export function storeBlob(home: Home, src: string, sha: string): string {
  const dest = home.blob(sha);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.chmodSync(src, 0o444);
  fs.renameSync(src, dest);
  fsyncDir(path.dirname(dest));
  return dest;
}
