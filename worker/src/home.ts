// Layout of the worker home (DESIGN "Storage on disk"):
//   config.json, worker-id, ledger.json, reserve (freed on a full disk to record outcomes)
//   receipts/<jobId>.json      durable job records (corrupt ones kept as .corrupt-<time>)
//   ops/<sha256(opId)>.json    opId -> jobId (idempotent submit/prepare)
//   jobs/<jobId>/              input.json, log, events.jsonl, work/, output/, checkpoints/
//   store/<aa>/<sha256>        content-addressed blobs, read-only (0444)
//   incoming/<sha256>.part     uploads in progress (size = resume offset)
//   index/outputs/<sha>.json   manifest sha256 -> job whose output it describes
//   index/verified/<sha>       boot id under which that store blob was last hashed
//   locks/                     lock files (see lock.ts)
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { WorkerConfig } from "./config";

export class Home {
  constructor(readonly cfg: WorkerConfig) {}
  get root() { return this.cfg.home; }
  p(...parts: string[]) { return path.join(this.cfg.home, ...parts); }
  receipt(jobId: string) { return this.p("receipts", `${jobId}.json`); }
  jobDir(jobId: string) { return this.p("jobs", jobId); }
  opIndex(opId: string) { return this.p("ops", `${crypto.createHash("sha256").update(opId).digest("hex")}.json`); }
  ledger() { return this.p("ledger.json"); }
  lock(name: string) { return this.p("locks", `${name}.lock`); }
  blob(sha: string) { return this.p("store", sha.slice(0, 2), sha); }
  part(sha: string) { return this.p("incoming", `${sha}.part`); }
  outputIndex(sha: string) { return this.p("index", "outputs", `${sha}.json`); }
  reserveFile() { return this.p("reserve"); }

  ensure(): void {
    for (const d of ["receipts", "ops", "jobs", "store", "incoming", "index/outputs", "locks"]) {
      fs.mkdirSync(this.p(d), { recursive: true });
    }
    fs.mkdirSync(this.cfg.envsDir, { recursive: true });
    this.ensureReserve();
  }

  /** 256 KiB kept aside; deleted on ENOSPC so the terminal receipt can still be written. */
  ensureReserve(): void {
    const f = this.reserveFile();
    if (fs.existsSync(f)) return;
    try {
      fs.writeFileSync(f, Buffer.alloc(256 * 1024));
    } catch {
      fs.rmSync(f, { force: true });
    }
  }

  freeReserve(): void {
    fs.rmSync(this.reserveFile(), { force: true });
  }

  workerId(): string {
    const f = this.p("worker-id");
    try {
      return fs.readFileSync(f, "utf8").trim();
    } catch {
      const id = crypto.randomUUID();
      try {
        fs.writeFileSync(f, id + "\n", { flag: "wx" });
        return id;
      } catch {
        return fs.readFileSync(f, "utf8").trim(); // another process created it first
      }
    }
  }
}

export function newJobId(): string {
  const t = new Date().toISOString().replace(/[-:TZ.]/g, "").slice(0, 14);
  return `j${t}-${crypto.randomBytes(5).toString("hex")}`;
}
