// Test helper: records fsync calls (by the path each descriptor names, via /proc/self/fd)
// and renames, in order, while the real calls still run. For tests that check a file's
// bytes are made durable before its name (temp, fsync, rename, fsync dir).
import fs from "node:fs";
import { vi } from "vitest";

export function recordDurability(): string[] {
  const calls: string[] = [];
  const fsync = fs.fsyncSync.bind(fs);
  const rename = fs.renameSync.bind(fs);
  vi.spyOn(fs, "fsyncSync").mockImplementation((fd: number) => {
    calls.push(`fsync ${fs.readlinkSync(`/proc/self/fd/${fd}`)}`);
    fsync(fd);
  });
  vi.spyOn(fs, "renameSync").mockImplementation((a: fs.PathLike, b: fs.PathLike) => {
    calls.push(`rename ${String(a)} -> ${String(b)}`);
    rename(a, b);
  });
  return calls;
}

/** Asserts `calls` holds each of `expected` in this order (other calls may come between). */
export function inOrder(calls: string[], expected: string[]): boolean {
  let i = 0;
  for (const c of calls) if (c === expected[i]) i++;
  return i === expected.length;
}
