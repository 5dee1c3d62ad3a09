// What peek and import open is checked again after the open: swaps between the path
// check and the open (a symlink, a FIFO, a parent folder pointed elsewhere) are refused,
// and a copy reads only the descriptor that was checked. Real files in a temp dir.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkerError } from "./errors";
import { openInRoots } from "./paths";
import { copyOpened } from "./snapshot";

let dir: string;
let root: string;
let outside: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-paths-"));
  root = path.join(dir, "root");
  outside = path.join(dir, "outside");
  fs.mkdirSync(path.join(root, "data"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, "data", "a.csv"), "x\n1\n");
  fs.writeFileSync(path.join(outside, "a.csv"), "secret\n");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function codeOf(fn: () => unknown): string {
  try {
    const r = fn() as { fd?: number };
    if (r?.fd !== undefined) fs.closeSync(r.fd);
    return "opened";
  } catch (err) {
    if (err instanceof WorkerError) return err.code;
    throw err;
  }
}

describe("openInRoots", () => {
  it("opens a regular file inside a root and reports its real path", () => {
    const f = openInRoots(path.join(root, "data", "a.csv"), [root]);
    try {
      expect(f.real).toBe(fs.realpathSync(path.join(root, "data", "a.csv")));
      expect(f.stat.size).toBe(4);
    } finally {
      fs.closeSync(f.fd);
    }
  });

  it("refuses a file swapped for a symlink to outside the roots after the check", () => {
    const file = path.join(root, "data", "a.csv");
    const code = codeOf(() =>
      openInRoots(file, [root], {
        beforeOpen: () => {
          fs.rmSync(file);
          fs.symlinkSync(path.join(outside, "a.csv"), file);
        },
      }),
    );
    expect(code).toBe("path_not_allowed");
  });

  it("refuses a parent folder swapped for a symlink to outside the roots after the check", () => {
    const code = codeOf(() =>
      openInRoots(path.join(root, "data", "a.csv"), [root], {
        beforeOpen: () => {
          fs.renameSync(path.join(root, "data"), path.join(root, "data-old"));
          fs.symlinkSync(outside, path.join(root, "data"));
        },
      }),
    );
    expect(code).toBe("path_not_allowed");
  });

  it("refuses a FIFO swapped in after the check without blocking on it", () => {
    const file = path.join(root, "data", "a.csv");
    const started = Date.now();
    const code = codeOf(() =>
      openInRoots(file, [root], {
        beforeOpen: () => {
          fs.rmSync(file);
          execFileSync("mkfifo", [file]);
        },
      }),
    );
    expect(code).toBe("not_a_regular_file");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("refuses a FIFO and a path outside the roots through a symlinked parent", () => {
    execFileSync("mkfifo", [path.join(root, "fifo")]);
    fs.symlinkSync(outside, path.join(root, "linked"));
    expect(codeOf(() => openInRoots(path.join(root, "fifo"), [root]))).toBe("not_a_regular_file");
    expect(codeOf(() => openInRoots(path.join(root, "linked", "a.csv"), [root]))).toBe("path_not_allowed");
  });
});

describe("key folders", () => {
  it("refuses a file inside a .ssh folder under an allowed root, directly or through a symlink", () => {
    fs.mkdirSync(path.join(root, ".ssh"));
    fs.writeFileSync(path.join(root, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    expect(codeOf(() => openInRoots(path.join(root, ".ssh", "id_ed25519"), [root]))).toBe("path_not_allowed");
    fs.symlinkSync(path.join(root, ".ssh", "id_ed25519"), path.join(root, "data", "innocent.csv"));
    expect(codeOf(() => openInRoots(path.join(root, "data", "innocent.csv"), [root]))).toBe("path_not_allowed");
    // A file merely named like the folder is fine.
    fs.writeFileSync(path.join(root, "data", ".ssh"), "x\n1\n");
    expect(codeOf(() => openInRoots(path.join(root, "data", ".ssh"), [root]))).toBe("opened");
  });
});

describe("credential folders", () => {
  it("refuses a file in any credential folder under an allowed root, and a .netrc file, by the settings' rule", () => {
    for (const place of [".aws", ".gnupg", ".docker", ".kube", ".config/gcloud", ".password-store"]) {
      fs.mkdirSync(path.join(root, place), { recursive: true });
      fs.writeFileSync(path.join(root, place, "credentials"), "x\n1\n");
      expect(codeOf(() => openInRoots(path.join(root, place, "credentials"), [root])), place).toBe("path_not_allowed");
    }
    fs.writeFileSync(path.join(root, ".netrc"), "machine example login a password b\n");
    expect(codeOf(() => openInRoots(path.join(root, ".netrc"), [root]))).toBe("path_not_allowed");
    fs.mkdirSync(path.join(root, ".config", "app"), { recursive: true });
    fs.writeFileSync(path.join(root, ".config", "app", "data.csv"), "x\n1\n");
    expect(codeOf(() => openInRoots(path.join(root, ".config", "app", "data.csv"), [root]))).toBe("opened");
  });
});

describe("copyOpened", () => {
  it("hashes the opened file in one pass, even when its path becomes a FIFO during the copy", () => {
    const file = path.join(root, "data", "a.csv");
    const src = openInRoots(file, [root]);
    // Move the folder (the file's own inode stays untouched) and put a FIFO at the path:
    // a second read by path would block here forever.
    fs.renameSync(path.join(root, "data"), path.join(root, "data-old"));
    fs.mkdirSync(path.join(root, "data"));
    execFileSync("mkfifo", [file]);
    const tmp = path.join(dir, "copy.tmp");
    try {
      const r = copyOpened(src, tmp, file);
      expect(r).toEqual({ sha256: crypto.createHash("sha256").update("x\n1\n").digest("hex"), bytes: 4 });
      expect(fs.readFileSync(tmp, "utf8")).toBe("x\n1\n");
    } finally {
      fs.closeSync(src.fd);
    }
  });

  it("refuses a file rewritten in place during the copy and leaves no temp file", () => {
    const file = path.join(root, "data", "big.bin");
    fs.writeFileSync(file, Buffer.alloc(3 << 20, 1));
    const src = openInRoots(file, [root]);
    const tmp = path.join(dir, "copy.tmp");
    let rewritten = false;
    const mtime = src.stat.mtime;
    try {
      const copy = () =>
        copyOpened(src, tmp, file, {
          onProgress: () => {
            if (rewritten) return;
            rewritten = true;
            fs.writeFileSync(file, Buffer.alloc(3 << 20, 2)); // same size ...
            fs.utimesSync(file, mtime, mtime); // ... and the old mtime: only ctime tells
          },
        });
      expect(codeOf(copy)).toBe("file_changed");
      expect(fs.existsSync(tmp)).toBe(false);
    } finally {
      fs.closeSync(src.fd);
    }
  });
});
