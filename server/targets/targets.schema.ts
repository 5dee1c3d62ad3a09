import { z } from "zod";
import { ZProbeResponse } from "@/contracts/worker";

export const LOCAL_TARGET_NAME = "This computer";

/** Target.config for kind "local": where this computer's worker keeps its home. */
export const ZLocalTargetConfig = z.object({ workerHome: z.string().min(1) });
export type TLocalTargetConfig = z.infer<typeof ZLocalTargetConfig>;

export const ZTargetIdInput = z.strictObject({ id: z.string().min(1).max(64) });
export type TTargetIdInput = z.infer<typeof ZTargetIdInput>;

export type TProbe = z.infer<typeof ZProbeResponse>;

export interface TargetView {
  id: string;
  name: string;
  kind: string;
  revision: number;
  enabled: boolean;
  workerId: string | null;
  probedAt: string | null;
  /** null while it answers; ISO time of the first failed call otherwise. */
  unreachableSince: string | null;
  lastError: string | null;
  /** Worker protocol too old for new jobs: the message says what to do. */
  outdatedWorker: string | null;
  /** SSH computers: how it is reached, in words (no secrets). */
  connection: TConnectionView | null;
  /** A host key the server presented and Trainyard refused, to check and accept. */
  hostKeyProblem: THostKeyProblemView | null;
  /** Other computers that reach the same worker (they share its resources). */
  sameWorkerAs: string[];
  /** The computer this server runs on: the one used when none is chosen (`--target local`). */
  thisComputer: boolean;
  /** How it is reached, in one sentence ("A server reached over SSH."). */
  description: string;
  /** What to do before its first probe. */
  notCheckedHint: string;
  /** What happens to the data when training there, when anything does. */
  dataNote: string | null;
  /** Set up, Test access, edit and remove apply (a server over SSH). */
  setUpOverSsh: boolean;
}

export interface TConnectionView {
  alias: string | null;
  host: string;
  port: number;
  user: string;
  keyFiles: string[];
  workerDir: string;
  nodePath: string | null;
}

export interface THostKeyProblemView {
  status: "unknown" | "changed" | "revoked";
  hostName: string;
  keyType: string;
  fingerprint: string;
  knownFingerprints: string[];
  seenAt: string;
}

export interface TargetDetailView extends TargetView {
  probe: TProbe | null;
}
