import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { batchScript } from "./script";
import { sbatchResourceArgs } from "./submit";

describe("the batch script", () => {
  it("passes every argument to the supervisor as one word, whatever it contains", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "slurm-script-"));
    const odd = ["it's", "$(touch pwned)", "a b", "`x`", '"q"'];
    const file = path.join(dir, "job.sh");
    writeFileSync(file, batchScript([process.execPath, "-e", "console.log(JSON.stringify(process.argv.slice(1)))", ...odd]));
    const out = execFileSync("sh", [file], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual(odd);
    expect(() => execFileSync("test", ["-e", path.join(dir, "pwned")])).toThrow();
  });
});

describe("sbatch's resource flags", () => {
  it("round CPUs and memory up, ask for GPUs, and give Slurm's time limit a minute beyond the deadline and grace", () => {
    expect(sbatchResourceArgs({ resources: { cpus: 1.5, ramGb: 2.5 }, deadlineSeconds: 600, graceSeconds: 30 })).toEqual(["--cpus-per-task=2", "--mem=2560M", "--time=12"]);
    expect(sbatchResourceArgs({ resources: { cpus: 4, ramGb: 0, gpus: 2 }, deadlineSeconds: 3600, graceSeconds: 0 })).toEqual(["--cpus-per-task=4", "--gres=gpu:2", "--time=61"]);
    expect(sbatchResourceArgs({ resources: { cpus: 0.5, ramGb: 1, gpuMemoryGb: 8 }, deadlineSeconds: 1, graceSeconds: 0 })).toEqual(["--cpus-per-task=1", "--mem=1024M", "--gres=gpu:1", "--time=2"]);
  });
});
