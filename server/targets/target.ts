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

export interface StoreResult extends PushResult {
  /**
   * Whether the computer now holds a copy of its own (a server), to be removed there when
   * the file goes; false where its worker reads This computer's store (This computer).
   */
  ownCopy: boolean;
}

/** How to reach a Unix socket on the worker's machine. */
export interface SocketRoute {
  /** Opens a stream; a failure of the link (not of the process) rejects with LinkDown. */
  openStream(): Promise<Duplex>;
  /** The computer the stream goes through, whose silence means the link, not the process; null when opened directly. */
  via: string | null;
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
   * Probed by the reconcile loop between uses (a process start here); a server is probed
   * when it is used or checked, not every few minutes over SSH.
   */
  readonly probedInBackground: boolean;
  /**
   * The way to a Unix socket on the worker's machine (a resident serving process's): This
   * computer connects to it directly; a server through stream-local forwarding of its SSH
   * connection, so no TCP port is opened anywhere.
   */
  socketRoute(socketPath: string): SocketRoute;
  /** One worker request; reachability is recorded on the computer (targets.service `execOn`). */
  exec<O extends WorkerOp>(op: O, body: RequestBody<O>): Promise<ResponseOf<O>>;
  /**
   * Makes the blob `sha256` (the file `localFile` here) exist where its worker's jobs read
   * it: sent to a server's store (resuming a cut transfer, verified by its worker's `put`),
   * or stored once in This computer's store (nothing moves when it is there already).
   * `onBytes` is called only while bytes move.
   */
  storeFile(localFile: string, sha256: string, bytes: number, onBytes?: (sent: number) => void): Promise<StoreResult>;
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
