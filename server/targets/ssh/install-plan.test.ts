import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { installChecksum, installPlan } from "./install-plan";

function tree() {
  const root = mkdtempSync(path.join(os.tmpdir(), "plan-"));
  const bundle = path.join(root, "dist");
  const training = path.join(root, "training");
  const tools = path.join(training, "tools");
  mkdirSync(bundle);
  mkdirSync(path.join(training, "recipes", "r", "__pycache__"), { recursive: true });
  mkdirSync(tools, { recursive: true });
  writeFileSync(path.join(bundle, "trainyard-worker.mjs"), "console.log(1)");
  writeFileSync(path.join(bundle, "VERSION"), "1.2.3\n");
  writeFileSync(path.join(training, "recipes", "r", "recipe.py"), "x = 1");
  writeFileSync(path.join(training, "recipes", "r", "__pycache__", "recipe.cpython-311.pyc"), "junk");
  writeFileSync(path.join(tools, "build_env.py"), "pass");
  return { bundle, training, tools };
}

describe("what Set up installs", () => {
  it("lists the bundle, recipes and tools without caches, with one checksum over all", () => {
    const t = tree();
    const plan = installPlan(t.bundle, t.training, t.tools);
    expect(plan.version).toBe("1.2.3");
    expect(plan.files.map((f) => f.dest).sort()).toEqual(
      ["VERSION", "tools/build_env.py", "training/recipes/r/recipe.py", "training/tools/build_env.py", "trainyard-worker.mjs"].sort(),
    );
    expect(plan.bytes).toBe(plan.files.reduce((n, f) => n + f.bytes, 0));
    expect(plan.checksum).toBe(installChecksum([...plan.files].reverse()));
    // One changed byte anywhere changes the checksum.
    writeFileSync(path.join(t.training, "recipes", "r", "recipe.py"), "x = 2");
    expect(installPlan(t.bundle, t.training, t.tools).checksum).not.toBe(plan.checksum);
  });

  it("refuses a folder without the worker bundle", () => {
    const t = tree();
    expect(() => installPlan(t.training, t.training, t.tools)).toThrow(/build:worker/);
  });
});
