import { describe, expect, it } from "vitest";
import { ZFineTuneSettings, type TFineTuneSettings } from "@/server/finetune/finetune.schema";
import { baseChosen, baseLabel, choicesOfRun, firstStepWithError, INITIAL_CHOICES, settingsErrors, settingsOf, STEP_TITLES, type FineTuneChoices } from "./wizard-state";

const SHA = "a".repeat(64);
const withBase = (base: FineTuneChoices["base"]): FineTuneChoices => ({ ...INITIAL_CHOICES, base });

describe("the wizard's base model", () => {
  it("starts the fine-tune from a .gguf the browser sent, by its hash", () => {
    const c = withBase({ kind: "upload", sent: { fileName: "SmolLM2.gguf", sha256: SHA, bytes: 95_000_000 } });
    expect(settingsOf(c).base).toEqual({ kind: "gguf_upload", fileName: "SmolLM2.gguf", sha256: SHA });
    expect(ZFineTuneSettings.safeParse(settingsOf(c)).success).toBe(true);
    expect(settingsErrors(c)).toEqual({});
    expect(baseLabel(c.base)).toBe(`SmolLM2.gguf (sent from this browser, 95.0 MB, SHA-256 ${"a".repeat(12)}…)`);
  });

  it("cannot go on with an upload chosen and nothing sent, and says what to do", () => {
    const c = withBase({ kind: "upload", sent: null });
    expect(baseChosen(c.base)).toBe(false);
    expect(settingsErrors(c)["settings.base.path"]).toBe("Choose a .gguf file to send, or give a path on the training computer.");
  });

  it("trims a path and refuses an empty one", () => {
    expect(settingsOf(withBase({ kind: "path", path: "  /data/m  " })).base).toEqual({ kind: "path", path: "/data/m" });
    expect(settingsErrors(withBase({ kind: "path", path: " " }))["settings.base.path"]).toBe("Give the path of a model folder or a .gguf file on the training computer.");
  });
});

describe("the wizard's step cap", () => {
  const withSteps = (maxSteps: number | null): FineTuneChoices => ({ ...withBase({ kind: "path", path: "/data/m" }), maxSteps });

  it("is left out of the start input when empty, and sent when set", () => {
    expect(settingsOf(withSteps(null))).not.toHaveProperty("maxSteps");
    expect(settingsOf(withSteps(12)).maxSteps).toBe(12);
    expect(settingsErrors(withSteps(12))).toEqual({});
  });

  it("is checked by the server's schema and shown on the Budget step", () => {
    for (const bad of [0, 2.5, 2_000_000]) expect(settingsErrors(withSteps(bad))["settings.maxSteps"], String(bad)).toBeDefined();
    expect(firstStepWithError(settingsErrors(withSteps(0)))).toBe(4);
  });
});

describe("steps that do not fit the minutes", () => {
  it("are fitted to them by default, and refused before training when the box is unticked", () => {
    const c: FineTuneChoices = { ...INITIAL_CHOICES, base: { kind: "path", path: "/data/m" } };
    expect(settingsOf(c).fitToBudget).toBe(true);
    expect(settingsOf({ ...c, fitToBudget: false }).fitToBudget).toBe(false);
    // A run started before the setting existed keeps refusing, as it did.
    expect(ZFineTuneSettings.parse({ base: c.base }).fitToBudget).toBe(false);
  });
});

describe("a run's settings in the wizard (Edit settings)", () => {
  const run = (base: TFineTuneSettings["base"], extra: Partial<TFineTuneSettings> = {}) => ({
    targetId: "t1",
    datasetId: "d1",
    evalDatasetId: null,
    settings: ZFineTuneSettings.parse({ base, maxSteps: 12, maxMinutes: 20, rank: 8, alpha: 32, answerPattern: "#### (\\d+)", ...extra }),
  });

  it("opens at the review with the run's computer, data and every setting, which start the same run again", () => {
    const r = run({ kind: "path", path: "/data/tiny" });
    const c = choicesOfRun(r)!;
    expect(c).toMatchObject({ step: STEP_TITLES.length - 1, targetId: "t1", datasetId: "d1", evalDatasetId: null, base: { kind: "path", path: "/data/tiny" }, maxSteps: 12, maxMinutes: 20, rank: 8, alpha: 32 });
    expect(settingsOf(c)).toEqual(r.settings);
    expect(settingsErrors(c)).toEqual({});
  });

  it("keeps an uploaded .gguf by its name and hash, its size unknown", () => {
    const c = choicesOfRun(run({ kind: "gguf_upload", fileName: "SmolLM2.gguf", sha256: SHA }))!;
    expect(c.base).toEqual({ kind: "upload", sent: { fileName: "SmolLM2.gguf", sha256: SHA, bytes: null } });
    expect(settingsOf(c).base).toEqual({ kind: "gguf_upload", fileName: "SmolLM2.gguf", sha256: SHA });
    expect(baseLabel(c.base)).toBe(`SmolLM2.gguf (sent from this browser, SHA-256 ${"a".repeat(12)}…)`);
  });

  it("is not offered for a model folder sent file by file by the CLI, which the wizard cannot take", () => {
    expect(choicesOfRun(run({ kind: "folder_upload", name: "tiny", files: [{ path: "config.json", sha256: SHA }] }))).toBeNull();
  });
});
