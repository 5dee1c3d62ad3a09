/**
 * A training computer's name is what a person types after `--computer`, where two words
 * already mean something else: "any" (the server chooses: experiments/placement.ts) and
 * "local" (This computer). A computer may not take either, nor a name another one has.
 */
import { badInput, conflict } from "@/server/errors";
import type { targetsRepository } from "./targets.repository";

/** What `--computer any` (and `targetId: "any"`) asks for. */
export const ANY_COMPUTER = "any";
const RESERVED = new Set([ANY_COMPUTER, "local"]);

export async function assertComputerNameFree(repo: ReturnType<typeof targetsRepository>, name: string, exceptId?: string): Promise<void> {
  const word = name.trim().toLowerCase();
  if (RESERVED.has(word)) throw badInput(`"${name}" cannot name a computer: --computer ${word} already means ${word === ANY_COMPUTER ? "any computer that fits" : "This computer"}. Choose another name.`);
  const other = await repo.findByName(name);
  if (other && other.id !== exceptId) throw conflict(`A training computer named "${name}" already exists.`);
}
