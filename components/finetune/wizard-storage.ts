/**
 * The fine-tuning wizard's choices kept in this tab's sessionStorage, one entry per project,
 * so a reload (or a phone that dropped the tab) comes back to the same step with the same
 * base model, data and budget. An uploaded .gguf is kept by its {fileName, sha256, bytes}:
 * its bytes stay on the server by that hash (a hash the server no longer holds is refused
 * at Start under the model field). What is read back goes through a schema: a value that
 * does not parse (another version's shape, a hand edit) is dropped, never trusted. Storage
 * that is off or full only means nothing is kept. Pure but for the storage passed in.
 */
import { z } from "zod";
import { ZLoraDevice } from "@/contracts/recipes/llm-lora";
import { STEP_TITLES, type FineTuneChoices } from "./wizard-state";

/** The part of the Web Storage API used here (tests pass their own). */
export type ChoiceStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const id = z.string().min(1).max(64);
// Numbers are kept as typed, in range or not: the wizard shows a bad one under its field.
const num = z.number();

const ZStoredBase = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("path"), path: z.string().max(4096) }),
  z.strictObject({
    kind: z.literal("upload"),
    sent: z.strictObject({ fileName: z.string().min(1).max(255), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.int().nonnegative().nullable() }).nullable(),
  }),
]);

export const ZStoredChoices = z.strictObject({
  step: z.int().min(0).max(STEP_TITLES.length - 1),
  targetId: id.nullable(),
  base: ZStoredBase,
  datasetId: id.nullable(),
  evalDatasetId: id.nullable(),
  evalFraction: num,
  device: ZLoraDevice,
  rank: num,
  alpha: num.nullable(),
  learningRate: num,
  maxLength: num,
  batchSize: num,
  epochs: num,
  maxSteps: num.nullable(),
  // Choices kept before this setting existed restore with the default.
  fitToBudget: z.boolean().default(true),
  maxMinutes: num,
  answerPattern: z.string().max(500),
}) satisfies z.ZodType<FineTuneChoices>;

export const choicesKey = (projectId: string) => `trainyard.finetune-wizard.${projectId}`;

export function saveChoices(store: ChoiceStore, projectId: string, choices: FineTuneChoices): void {
  try {
    store.setItem(choicesKey(projectId), JSON.stringify(choices));
  } catch {
    // Storage full or turned off: the wizard goes on; a reload starts over.
  }
}

/** The kept choices of this project's wizard; null when none were kept or they do not parse (then they are dropped). */
export function restoreChoices(store: ChoiceStore, projectId: string): FineTuneChoices | null {
  let raw: string | null;
  try {
    raw = store.getItem(choicesKey(projectId));
  } catch {
    return null;
  }
  if (raw === null) return null;
  let parsed: ReturnType<typeof ZStoredChoices.safeParse> | null = null;
  try {
    parsed = ZStoredChoices.safeParse(JSON.parse(raw));
  } catch {
    // not JSON: dropped below
  }
  if (parsed?.success) return parsed.data;
  clearChoices(store, projectId);
  return null;
}

/** Once the run started (or the user starts over), the kept choices go. */
export function clearChoices(store: ChoiceStore, projectId: string): void {
  try {
    store.removeItem(choicesKey(projectId));
  } catch {
    // Nothing kept to drop.
  }
}

/** This tab's sessionStorage; null on the server or where the browser refuses it. */
export function tabStore(): ChoiceStore | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
