/**
 * Which computers the controller probes between uses: those cheap to probe (This computer:
 * a process start; a server is probed when used or checked, not every few minutes over
 * SSH) whose last probe is older than `maxAgeMs`. `since` moves a computer's last probe
 * later (a try that failed).
 */
import type { Db } from "@/server/db/client";
import { targetFor } from "./target-for";
import { targetsRepository } from "./targets.repository";

export async function dueForBackgroundProbe(db: Db, maxAgeMs: number, since: (id: string) => number): Promise<{ id: string }[]> {
  return (await targetsRepository(db).list()).filter(
    (t) => Date.now() - Math.max(t.probedAt?.getTime() ?? 0, since(t.id)) >= maxAgeMs && targetFor(t, db).probedInBackground,
  );
}
