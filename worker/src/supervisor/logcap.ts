// Size-capped job log with stable offsets. The first `cap` bytes are kept; after that
// one marker line is written and further output is dropped and counted, so an offset a
// reader already holds always points at the same bytes. Writes are synchronous and
// charged to the ENOSPC test hook; an ENOSPC escapes to the caller (→ disk_full).
import fs from "node:fs";
import { chargeWrite } from "../faults";

const MARKER_RESERVE = 200;

export class CappedLog {
  private fd: number;
  private written: number;
  private capped = false;
  dropped = 0;

  constructor(
    readonly file: string,
    private readonly cap: number,
  ) {
    this.fd = fs.openSync(file, "a");
    this.written = fs.fstatSync(this.fd).size;
  }

  get bytes(): number {
    return this.written;
  }

  write(chunk: Buffer): void {
    if (this.capped) {
      this.dropped += chunk.length;
      return;
    }
    const room = Math.max(0, this.cap - MARKER_RESERVE - this.written);
    const keep = chunk.length <= room ? chunk : chunk.subarray(0, room);
    if (keep.length) this.raw(keep);
    if (keep.length < chunk.length) {
      this.capped = true;
      this.dropped += chunk.length - keep.length;
      this.raw(Buffer.from(`\n[trainyard] log cap of ${this.cap} bytes reached; further output is dropped (count in the receipt)\n`));
    }
  }

  private raw(buf: Buffer): void {
    chargeWrite(buf.length, `writing the job log ${this.file}`);
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
    this.written += buf.length;
  }

  /** A line from the supervisor itself (launch errors, stop notices). */
  note(text: string): void {
    try {
      this.write(Buffer.from(`[trainyard] ${text}\n`));
    } catch {
      // best effort
    }
  }

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}
