/**
 * The one way an alias moves: in one transaction, the model's revision is checked and
 * bumped (a stale revision changes nothing), the alias row is written and its event row
 * appended. A process killed in the middle leaves the old alias or the new one with its
 * event, never half: SQLite rolls back an unfinished transaction.
 */
import { writeFileSync } from "node:fs";
import type { Tx } from "@/server/lifecycle/transition";
import { conflict } from "@/server/errors";
import type { Actor } from "./registry.schema";
import { registryRepository } from "./registry.repository";

export interface AliasMove {
  modelId: string;
  alias: string;
  kind: "promote" | "rollback";
  fromVersionId: string | null;
  toVersionId: string;
  expectedRevision: number;
  actor: Actor;
  reason: string;
  evidence: unknown;
  acknowledgedRegression: boolean;
}

/**
 * Test hook: with TRAINYARD_TEST_ALIAS_MOVE_PAUSE_FILE set, a move writes that file once
 * its alias row is written (the transaction still open) and waits there, so a test can
 * kill the server mid-move. Unset everywhere but in that test.
 */
async function pauseForTest(): Promise<void> {
  const file = process.env.TRAINYARD_TEST_ALIAS_MOVE_PAUSE_FILE;
  if (!file) return;
  writeFileSync(file, String(process.pid));
  await new Promise((r) => setTimeout(r, 120_000));
}

/** Applies the move; returns the event row id. Throws CONFLICT `stale_revision` when the model moved on. */
export async function moveAlias(tx: Tx, m: AliasMove): Promise<number> {
  const repo = registryRepository(tx);
  const bumped = await repo.bumpRevision(m.modelId, m.expectedRevision);
  if (bumped === 0) throw conflict("The model changed since you looked at it (another promotion or rollback came first).", { code: "stale_revision" });
  await repo.pointAlias(m.modelId, m.alias, m.toVersionId);
  await pauseForTest();
  return repo.appendAliasEvent({
    modelId: m.modelId,
    alias: m.alias,
    kind: m.kind,
    fromVersionId: m.fromVersionId,
    toVersionId: m.toVersionId,
    revision: m.expectedRevision + 1,
    actor: JSON.stringify(m.actor),
    reason: m.reason,
    evidence: JSON.stringify(m.evidence),
    acknowledgedRegression: m.acknowledgedRegression,
  });
}
