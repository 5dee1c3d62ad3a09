/**
 * One server per data home, with real processes racing: 8 starters at the same moment,
 * on a free home and on a home whose lock a dead server left behind, must end with exactly
 * one holder each round (an empty lock seen mid-creation used to be removed as stale).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "@/server/testing/server-harness";
import { processStartTime } from "./instance-lock";

const RACER = path.join(REPO, "server/lifecycle/instance-lock-racer.ts");

function racer(lockFile: string, at: number): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", RACER, lockFile, String(at), "8000"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (out += b.toString()));
  return new Promise((resolve) => child.once("exit", () => resolve(out.trim())));
}

/** A lock as a crashed server leaves it: its pid has exited. */
function staleLock(lockFile: string): void {
  const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  const pid = Number(dead.stdout.trim());
  writeFileSync(lockFile, JSON.stringify({ pid, startTime: processStartTime(process.pid), url: "http://127.0.0.1:1", startedAt: new Date().toISOString() }));
}

describe("the instance lock under racing starts", { timeout: 300_000 }, () => {
  it.each([
    ["a free data home", false],
    ["a data home with a stale lock", true],
    ["a free data home, again", false],
    ["a data home with a stale lock, again", true],
  ])("8 starters at once on %s: exactly one holds it", async (_what, stale) => {
    const lockFile = path.join(mkdtempSync(path.join(tmpdir(), "lock-race-")), "server.lock");
    if (stale) staleLock(lockFile);
    // Far enough ahead for all 8 to have loaded tsx on 2 busy CPUs.
    const at = Date.now() + 8000;
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => racer(lockFile, at)));
    expect(outcomes.filter((o) => o === "HELD"), outcomes.join("\n")).toHaveLength(1);
    for (const o of outcomes.filter((x) => x !== "HELD")) expect(o).toMatch(/^REFUSED (Another Trainyard server)/);
    expect(existsSync(lockFile)).toBe(false);
  });
});
