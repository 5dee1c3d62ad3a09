// GPU discovery through nvidia-smi (absent = no GPUs, a valid answer).
import { spawnSync } from "node:child_process";

export interface GpuInfo {
  index: number;
  uuid: string;
  name: string;
  memoryTotalBytes: number;
  memoryFreeBytes: number;
}

let cached: { gpus: GpuInfo[]; problem: string | null } | null = null;

export function detectGpus(): { gpus: GpuInfo[]; problem: string | null } {
  if (cached) return cached;
  const r = spawnSync("nvidia-smi", ["--query-gpu=index,uuid,name,memory.total,memory.free", "--format=csv,noheader,nounits"], {
    encoding: "utf8",
    timeout: 15_000,
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    cached = { gpus: [], problem: code === "ENOENT" ? null : `nvidia-smi failed: ${r.error.message}` };
  } else if (r.status !== 0) {
    cached = { gpus: [], problem: `nvidia-smi exited ${r.status}: ${(r.stderr || r.stdout).trim().slice(0, 300)}` };
  } else {
    const gpus = r.stdout
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => {
        const [index, uuid, name, total, free] = l.split(",").map((s) => s.trim());
        return {
          index: Number(index),
          uuid: uuid ?? "",
          name: name ?? "",
          memoryTotalBytes: Number(total) * 1024 ** 2,
          memoryFreeBytes: Number(free) * 1024 ** 2,
        };
      });
    cached = { gpus, problem: null };
  }
  return cached;
}
