// The recipe's process group as the supervisor watches it, however it started: spawned
// cold (a fresh interpreter, the supervisor's own child, whose exit Node reports) or forked
// from a warm runner (the runner's grandchild: its leader records how it ended in the
// job's status file, and is watched by pid and start time).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import type { Readable } from "node:stream";
import { z } from "zod";
import type { TProcessIdentity } from "../../../contracts/worker/receipt";
import { identityOf, isAlive } from "../proc";
import type { WarmFork } from "../warm/fork-job";
import type { Command } from "./command";
import type { ExitKind } from "./outcome";

export interface RecipeProcess {
  launch: "cold" | "warm";
  /** The group leader (its pid is the group id), null when nothing started. */
  leader: TProcessIdentity | null;
  /** Its output: stdout and stderr, or the one connection a warm job writes both to. */
  streams: Readable[];
  /** Resolves once exit() is known. */
  exited: Promise<void>;
  exit(): ExitKind | null;
  /** Looks for the end of a process whose exit is not reported by an event (warm). */
  poll(): void;
  /** What only the supervisor can say about its start or end (could not start; killed unrecorded). */
  detail(): string | null;
}

export function spawnCold(command: Command, cwd: string): RecipeProcess {
  const child = spawn(command.cmd, command.args, { cwd, env: command.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let exit: ExitKind | null = null;
  let detail: string | null = null;
  const exited = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exit = signal ? { kind: "signalled", signal } : { kind: "exited", code: code ?? 1 };
      resolve();
    });
    child.on("error", (err) => {
      if (!child.pid) {
        exit = { kind: "launch_failed" };
        detail = `could not start ${command.cmd}: ${err.message}`;
        resolve();
      }
    });
  });
  return {
    launch: "cold",
    // Read now, before the exit event can reap it: every signal to the group is checked
    // against this identity, so a pid reused after the group is gone is never signalled.
    leader: child.pid ? identityOf(child.pid) : null,
    streams: [child.stdout, child.stderr].filter((s): s is Readable => s !== null),
    exited,
    exit: () => exit,
    poll: () => {},
    detail: () => detail,
  };
}

const ZStatus = z.union([
  z.object({ pid: z.number(), code: z.number().int() }),
  z.object({ pid: z.number(), signal: z.number().int() }),
  z.object({ pid: z.number(), lost: z.literal(true) }),
]);

function signalName(n: number): NodeJS.Signals {
  const found = Object.entries(os.constants.signals).find(([, v]) => v === n);
  return (found?.[0] as NodeJS.Signals | undefined) ?? "SIGKILL";
}

/** How the job ended by its leader's record, and what the supervisor adds when the record says too little. */
function readStatus(file: string): { exit: ExitKind; detail: string | null } | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null; // not written yet (it is renamed into place whole)
  }
  const s = ZStatus.safeParse(raw);
  if (!s.success) return { exit: { kind: "exited", code: 1 }, detail: `the job's exit status record ${file} is not one the worker reads` };
  if ("code" in s.data) return { exit: { kind: "exited", code: s.data.code }, detail: null };
  if ("signal" in s.data) return { exit: { kind: "signalled", signal: signalName(s.data.signal) }, detail: null };
  return { exit: { kind: "signalled", signal: "SIGKILL" }, detail: "the job's leader could not learn how the job ended" };
}

export function watchWarm(fork: Extract<WarmFork, { ok: true }>, statusFile: string): RecipeProcess {
  let exit: ExitKind | null = null;
  let detail: string | null = null;
  let resolveExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    resolveExited = resolve;
  });
  const poll = () => {
    if (exit !== null) return;
    let recorded = readStatus(statusFile);
    if (!recorded && !isAlive(fork.leader)) {
      // Written before the leader exits: read once more in case it landed just now. The
      // leader ignores SIGTERM and SIGINT: only a kill it cannot catch ends it unrecorded.
      recorded = readStatus(statusFile) ?? {
        exit: { kind: "signalled", signal: "SIGKILL" },
        detail: "the job's leader process was killed before it could record how the job ended",
      };
    }
    if (!recorded) return;
    ({ exit, detail } = recorded);
    resolveExited();
  };
  fork.connection.on("close", poll);
  return {
    launch: "warm",
    leader: fork.leader,
    streams: [fork.connection],
    exited,
    exit: () => exit,
    poll,
    detail: () => detail,
  };
}
