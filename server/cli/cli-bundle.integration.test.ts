/**
 * `bin/trainyard.mjs` runs the CLI from an esbuild bundle of its sources (bin/cli-bundle.mjs):
 * built on the first command, used as is while no source changed, built again when one
 * did, and the sources through tsx when no bundle can be made. Runs the real launcher in a
 * throw-away copy of the CLI's inputs, so the repository's own dist/ is never touched.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const INPUTS = ["bin", "server", "contracts", "generated", "tsconfig.json", "package.json", "package-lock.json"];
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "trainyard-cli-bundle-"));
  for (const input of INPUTS) cpSync(path.join(REPO, input), path.join(root, input), { recursive: true });
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "node_modules"), "dir");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function trainyard(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [path.join(root, "bin", "trainyard.mjs"), ...args], { encoding: "utf8", env: { ...process.env, ...env, TRAINYARD_DEBUG: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const bundles = () => readdirSync(path.join(root, "dist", "cli")).filter((n) => !n.startsWith(".") && n !== "current").sort();
const current = () => readFileSync(path.join(root, "dist", "cli", "current"), "utf8").trim();

describe("the CLI's bundle", () => {
  it("is built by the first command, reused while the sources stay, and built again when one changes", () => {
    const first = trainyard(["models", "--help"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("trainyard models list");
    expect(first.stderr).not.toContain("running the CLI from its sources");
    const [one] = bundles();
    expect(bundles()).toHaveLength(1);
    expect(current()).toBe(one);
    const inputs = JSON.parse(readFileSync(path.join(root, "dist", "cli", one!, "inputs.json"), "utf8")) as [string, number, number][];
    expect(inputs.map(([rel]) => rel)).toEqual(expect.arrayContaining(["server/cli/main.ts", "server/cli/commands/models.ts", "tsconfig.json"]));

    expect(trainyard(["--help"]).code).toBe(0);
    expect(bundles()).toEqual([one]);

    // A changed source is what the next command runs.
    const models = path.join(root, "server", "cli", "commands", "models.ts");
    writeFileSync(models, readFileSync(models, "utf8").replace("  trainyard models list [", "  trainyard models list (changed) ["));
    const changed = trainyard(["models", "--help"]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain("trainyard models list (changed)");
    expect(bundles()).toHaveLength(2);
    expect(current()).not.toBe(one);
    // A comment changes the file, not what runs: still a new bundle, built from the file as it is.
    appendFileSync(models, "\n// a comment\n");
    expect(trainyard(["models", "--help"]).stdout).toContain("trainyard models list (changed)");
    expect(bundles()).toHaveLength(3);
  });

  it("runs the sources through tsx when no bundle can be made, and says so with TRAINYARD_DEBUG", () => {
    // dist/cli cannot be a folder: the bundle cannot be written.
    writeFileSync(path.join(root, "dist"), "not a folder");
    const r = trainyard(["models", "--help"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("trainyard models list");
    expect(r.stderr).toContain("trainyard: running the CLI from its sources");
    expect(existsSync(path.join(root, "dist", "cli"))).toBe(false);
  });

  it("records no bundle while generated/ is missing (a command run before prisma generate), and builds one once it is there", () => {
    renameSync(path.join(root, "generated"), path.join(root, "generated-aside"));
    const early = trainyard(["--help"]);
    expect(early.code, early.stderr).toBe(0);
    expect(early.stderr).toContain("cannot resolve @/generated/prisma/client yet");
    expect(existsSync(path.join(root, "dist", "cli", "current"))).toBe(false);
    renameSync(path.join(root, "generated-aside"), path.join(root, "generated"));
    const later = trainyard(["models", "--help"]);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stderr).not.toContain("running the CLI from its sources");
    expect(bundles()).toHaveLength(1);
  });

  it("answers the same from the sources when asked to (TRAINYARD_CLI_FROM_SOURCES=1)", () => {
    const bundled = trainyard(["--help"]);
    const sources = trainyard(["--help"], { TRAINYARD_CLI_FROM_SOURCES: "1" });
    expect(sources.code).toBe(0);
    expect(sources.stdout).toBe(bundled.stdout);
  });
});
