/**
 * A training computer as the rest of the server uses it: one interface, implemented for
 * This computer (local/local-worker.ts) and for a server over SSH (ssh/ssh-worker.ts),
 * obtained with `targetFor` (target-for.ts). Nothing outside server/targets branches on a
 * computer's kind: what differs between them is a method or a property here.
 */
import type { Duplex } from "node:stream";
import type { z } from "zod";
import type { REQUEST_SCHEMAS, WorkerOp } from "@/contracts/worker";
import type { WorkerLayout } from "./layout";
import type { TargetRow } from "./targets.repository";
import type { ResponseOf } from "./transport";

/** A request's fields other than `protocol` and `op`, which `exec` adds. */
export type RequestBody<O extends WorkerOp> = Omit<z.input<(typeof REQUEST_SCHEMAS)[O]>, "protocol" | "op">;

export interface PushResult {
  /** Bytes already there from an earlier, interrupted transfer (all of them when nothing had to move). */
  resumedFrom: number;
  /** Bytes sent now. */
  sent: number;
}

/** What became of one blob asked to be removed: `in_use` when an active job there reads it. */
export interface BlobRemoval {
  sha256: string;
  outcome: "removed" | "absent" | "in_use";
}

export interface Target {
  readonly row: TargetRow;
  readonly name: string;
  /** The worker's home, store and receipts, as paths on the worker's machine. */
  readonly layout: WorkerLayout;
  /**
   * This computer: its worker's store is the controller's own, so a blob needs no copy
   * there and a path its worker names is readable here as it is.
   */
  readonly sharesStore: boolean;
  /**
   * Probed by the reconcile loop between uses (a process start here); a server is probed
   * when it is used or checked, not every few minutes over SSH.
   */
  readonly probedInBackground: boolean;
  /**
   * A stream to a Unix socket on the worker's machine (a resident serving process's): This
   * computer connects to it directly; a server through stream-local forwarding of its SSH
   * connection, so no TCP port is opened anywhere.
   */
  openSocket(socketPath: string): Promise<Duplex>;
  /**
   * The link `openSocket` goes through (the SSH computer's name), whose failure to give a
   * stream (anything but SocketRefused: nobody listens there) says nothing about the process
   * behind it; null where the socket is opened directly.
   */
  readonly socketLink: string | null;
  /** One worker request; reachability is recorded on the computer (targets.service `execOn`). */
  exec<O extends WorkerOp>(op: O, body: RequestBody<O>): Promise<ResponseOf<O>>;
  /** Makes the blob `sha256` (a file here) exist in the worker's store, resuming a cut transfer. */
  pushBlob(localFile: string, sha256: string, bytes: number, onBytes?: (sent: number) => void): Promise<PushResult>;
  /** Copies a file its worker named (a path on its machine) to `localFile` here. */
  pullFile(workerPath: string, localFile: string): Promise<void>;
  /** Runs `fn` on a readable copy of a file its worker named (the file itself on This computer). */
  withFile<T>(workerPath: string, fn: (localFile: string) => Promise<T>): Promise<T>;
  /** Asks the worker to remove these store blobs (its `gc` naming them); it keeps one an active job reads. */
  removeBlobs(sha256s: string[]): Promise<BlobRemoval[]>;
  /**
   * Asks the worker to remove what an answered request left: the named ended jobs' folders
   * (rows and predictions; receipts stay) and the named blobs (the rows it read).
   */
  forgetRequest(jobIds: string[], sha256s: string[]): Promise<void>;
  /** Asks the worker to remove upload parts a day old (a crash's leftovers); their names. */
  removeStaleParts(): Promise<string[]>;
}
