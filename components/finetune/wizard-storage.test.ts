import { describe, expect, it } from "vitest";
import { INITIAL_CHOICES, settingsErrors, settingsOf, type FineTuneChoices } from "./wizard-state";
import { choicesKey, clearChoices, restoreChoices, saveChoices, type ChoiceStore } from "./wizard-storage";

/** sessionStorage's behaviour for the three calls used: strings in, strings out. */
function memoryStore(): ChoiceStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, String(v)),
    removeItem: (k) => void items.delete(k),
  };
}

const SHA = "b".repeat(64);
const midway: FineTuneChoices = {
  ...INITIAL_CHOICES,
  step: 4,
  targetId: "local",
  base: { kind: "upload", sent: { fileName: "SmolLM2-135M.Q4_1.gguf", sha256: SHA, bytes: 95_000_000 } },
  datasetId: "ds_train",
  evalDatasetId: "ds_eval",
  maxLength: 256,
  maxMinutes: 20,
  maxSteps: 40,
  answerPattern: "#### (\\S+)",
};

describe("the fine-tune wizard's choices across a reload", () => {
  it("restores what was saved for the project, the uploaded GGUF by its hash included", () => {
    const store = memoryStore();
    saveChoices(store, "p1", midway);
    expect(restoreChoices(store, "p1")).toEqual(midway);
    // The restored choices start the same run: the server's schema takes them as they were.
    expect(settingsOf(restoreChoices(store, "p1")!)).toEqual(settingsOf(midway));
    expect(settingsOf(midway)).toMatchObject({ base: { kind: "gguf_upload", fileName: "SmolLM2-135M.Q4_1.gguf", sha256: SHA }, maxSteps: 40, maxMinutes: 20 });
  });

  it("restores a run's choices put there by Edit settings, an uploaded GGUF of unknown size included", () => {
    const store = memoryStore();
    const edited = { ...midway, step: 5, base: { kind: "upload" as const, sent: { fileName: "SmolLM2-135M.Q4_1.gguf", sha256: SHA, bytes: null } } };
    saveChoices(store, "p1", edited);
    expect(restoreChoices(store, "p1")).toEqual(edited);
  });

  it("keeps each project's wizard apart", () => {
    const store = memoryStore();
    saveChoices(store, "p1", midway);
    expect(restoreChoices(store, "p2")).toBeNull();
    saveChoices(store, "p2", { ...INITIAL_CHOICES, step: 1 });
    expect(restoreChoices(store, "p1")?.step).toBe(4);
    expect(restoreChoices(store, "p2")?.step).toBe(1);
  });

  it("restores choices kept before the fit-to-budget box existed with it ticked", () => {
    const store = memoryStore();
    store.setItem(choicesKey("p1"), JSON.stringify(Object.fromEntries(Object.entries(midway).filter(([k]) => k !== "fitToBudget"))));
    expect(restoreChoices(store, "p1")).toEqual({ ...midway, fitToBudget: true });
    saveChoices(store, "p1", { ...midway, fitToBudget: false });
    expect(restoreChoices(store, "p1")?.fitToBudget).toBe(false);
  });

  it("keeps a value out of range as typed, so the step shows it under its field", () => {
    const store = memoryStore();
    saveChoices(store, "p1", { ...midway, maxSteps: 0 });
    const back = restoreChoices(store, "p1")!;
    expect(back.maxSteps).toBe(0);
    expect(settingsErrors(back)["settings.maxSteps"]).toBeDefined();
  });

  it("drops a stored value that does not parse instead of trusting it", () => {
    const store = memoryStore();
    const key = choicesKey("p1");
    const broken: unknown[] = [
      "{not json",
      JSON.stringify({ ...midway, base: { kind: "upload", sent: { fileName: "x.gguf", sha256: "../../etc/passwd", bytes: 1 } } }),
      JSON.stringify({ ...midway, device: "tpu" }),
      JSON.stringify({ ...midway, step: 9 }),
      JSON.stringify({ ...midway, maxSteps: "40" }),
      JSON.stringify({ ...midway, extra: true }),
      // An older shape without the step cap.
      JSON.stringify(Object.fromEntries(Object.entries(midway).filter(([k]) => k !== "maxSteps"))),
      JSON.stringify(null),
    ];
    for (const value of broken) {
      store.setItem(key, value as string);
      expect(restoreChoices(store, "p1"), String(value)).toBeNull();
      expect(store.items.has(key)).toBe(false);
    }
  });

  it("forgets the choices once cleared (the run started)", () => {
    const store = memoryStore();
    saveChoices(store, "p1", midway);
    clearChoices(store, "p1");
    expect(restoreChoices(store, "p1")).toBeNull();
  });

  it("goes on without storage when the browser refuses it", () => {
    const refusing: ChoiceStore = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(() => saveChoices(refusing, "p1", midway)).not.toThrow();
    expect(restoreChoices(refusing, "p1")).toBeNull();
    expect(() => clearChoices(refusing, "p1")).not.toThrow();
  });
});
