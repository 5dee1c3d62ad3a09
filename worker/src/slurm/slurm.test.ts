import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { slurmJobCapacity } from "./probe";
import { batchScript } from "./script";
import { sbatchResourceArgs, slurmMinutes } from "./submit";

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

  it("cap the time limit at the partition's MaxTime (the job goes on as new Slurm jobs past it)", () => {
    const long = { resources: { cpus: 1, ramGb: 0 }, deadlineSeconds: 10 * 3600, graceSeconds: 30 };
    expect(sbatchResourceArgs(long, 240)).toContain("--time=240");
    expect(sbatchResourceArgs(long, null)).toContain("--time=602");
    expect(sbatchResourceArgs({ ...long, deadlineSeconds: 60 }, 240)).toContain("--time=3");
  });

  it("read Slurm's time format", () => {
    expect(slurmMinutes("infinite")).toBeNull();
    expect(slurmMinutes("UNLIMITED")).toBeNull();
    expect(slurmMinutes("30")).toBe(30);
    expect(slurmMinutes("30:30")).toBe(30.5);
    expect(slurmMinutes("4:00:00")).toBe(240);
    expect(slurmMinutes("1-00:00:00")).toBe(1440);
    expect(slurmMinutes("2-12")).toBe(2 * 1440 + 720);
    expect(slurmMinutes("1-2:30")).toBe(1440 + 150);
  });
});

describe("a Slurm computer's capacity", () => {
  const probe = (gres: string | null, cpusPerNode: number | null = 32) => ({
    version: "22.05.8", controllerUp: true, partition: "gpu", sharedHome: null, pendingJobs: 0, problem: null,
    partitions: [
      { name: "cpu", state: "up", nodes: 4, cpusPerNode: 8, memoryMibPerNode: 16000, idleCpus: 32, gres: null, nodeNames: "c[1-4]" },
      { name: "gpu", state: "up", nodes: 2, cpusPerNode, memoryMibPerNode: 256000, idleCpus: 64, gres, nodeNames: "g[1-2]" },
    ],
  });
  it("is one node of its partition, GPUs read from GRES with or without a type", () => {
    expect(slurmJobCapacity(probe("gpu:a100:4(S:0-1)"))).toEqual({ cpus: 32, ramGb: 250, gpus: 4 });
    expect(slurmJobCapacity(probe("gpu:2"))).toEqual({ cpus: 32, ramGb: 250, gpus: 2 });
    expect(slurmJobCapacity(probe(null))).toEqual({ cpus: 32, ramGb: 250, gpus: 0 });
    expect(slurmJobCapacity(probe(null, null))).toBeNull();
  });
});
