import { describe, expect, it } from "vitest";
import { jobContract } from "@/contracts/recipes";
import { ZFineTuneSettings, type TBaseModelSource } from "./lora-settings";
import { reserveSeconds } from "../chain-budget";
import { readySteps, stepSpec } from "../pipeline";
import { LORA, LORA_STEPS, baseIdentity, resumedOpId, type LoraContext, type LoraStep } from "./lora";

const hex = (c: string) => c.repeat(64);
const ALL_OUTPUTS = Object.fromEntries(LORA_STEPS.map((s, i) => [s, String(i).padStart(64, "0")]));
const GGUF: TBaseModelSource = { kind: "gguf_upload", fileName: "SmolLM2-135M-Instruct.Q4_1.gguf", sha256: hex("e") };

function ctx(over: Partial<LoraContext> = {}, settings: Record<string, unknown> = {}): LoraContext {
  return {
    experimentId: "e1",
    opId: "op-123456",
    targetId: "t1",
    projectName: "P",
    experimentName: "Fine-tune #1",
    datasetName: "gsm8k.jsonl",
    snapshotSha256: hex("a"),
    holdouts: [],
    datasetFormat: null,
    cpus: 2,
    freeCpus: 2,
    remainingSeconds: 600,
    outputs: ALL_OUTPUTS,
    settings: ZFineTuneSettings.parse({ base: { kind: "path", path: "/models/gpt2" }, maxMinutes: 10, ...settings }),
    evalSnapshotSha256: null,
    resumeFrom: null,
    measured: null,
    ...over,
  };
}
const spec = (s: LoraStep) => stepSpec(LORA, s);
const input = (s: LoraStep, c: LoraContext) => spec(s).input(c) as Record<string, unknown>;

describe("the fine-tuning pipeline", () => {
  it("runs import, checks, preflight, training, evaluation and export one after another", () => {
    const order: LoraStep[] = [];
    const outputs: LoraContext["outputs"] = {};
    for (;;) {
      const ready = readySteps(LORA, new Set(order), outputs);
      if (ready.length === 0) break;
      expect(ready).toHaveLength(1);
      order.push(ready[0]!.name);
      outputs[ready[0]!.name] = hex("f");
    }
    expect(order).toEqual(["import_base", "check_data", "preflight", "train", "evaluate", "export"]);
    expect(LORA.budgetedStep).toBe("train");
  });

  it("builds every step's input as the llm-lora contract accepts it, for each kind of base and with an evaluation file", () => {
    const bases: TBaseModelSource[] = [
      { kind: "path", path: "/models/gpt2" },
      GGUF,
      { kind: "folder_upload", name: "tiny-gpt2", files: [{ path: "config.json", sha256: hex("1") }, { path: "model.safetensors", sha256: hex("2") }] },
    ];
    const contexts = [
      ...bases.map((base) => ctx({}, { base })),
      ctx({ evalSnapshotSha256: hex("b"), resumeFrom: "checkpoints:j20261201120000-0123456789" }, { alpha: 32, maxSteps: 40, answerPattern: "#### (\\S+)" }),
    ];
    for (const s of LORA.steps) {
      const contract = jobContract(s.recipe, s.job);
      expect(contract, `${s.recipe}.${s.job}`).not.toBeNull();
      for (const c of contexts) {
        const parsed = contract!.input.safeParse(s.input(c));
        expect(parsed.error?.issues ?? [], s.name).toEqual([]);
      }
    }
  });

  it("names earlier outputs and the data by hash; only a base on the training computer is a path", () => {
    const c = ctx({ evalSnapshotSha256: hex("b") });
    expect(input("check_data", c)).toMatchObject({ model: `sha256:${ALL_OUTPUTS.import_base}`, data: `sha256:${hex("a")}`, eval: `sha256:${hex("b")}` });
    expect(input("evaluate", c)).toMatchObject({ adapter: `sha256:${ALL_OUTPUTS.train}`, data: `sha256:${ALL_OUTPUTS.check_data}` });
    expect(input("import_base", c)).toEqual({ source: "/models/gpt2" });
    expect(input("import_base", ctx({}, { base: GGUF }))).toEqual({ source: `sha256:${hex("e")}`, name: "SmolLM2-135M-Instruct.Q4_1" });
    for (const s of LORA.steps.filter((x) => x.name !== "import_base")) expect(JSON.stringify(s.input(c))).not.toMatch(/"\//);
  });

  it("holds out a split of the data when no evaluation file is given", () => {
    const i = input("check_data", ctx({}, { evalFraction: 0.2, seed: 7 }));
    expect(i.eval).toBeUndefined();
    expect(i).toMatchObject({ evalFraction: 0.2, seed: 7 });
  });

  it("gives training and its preflight the budget left minus the evaluation and export reserve", () => {
    const c = ctx({ remainingSeconds: 500 });
    expect(reserveSeconds(600)).toBe(150);
    expect(input("train", c).maxMinutes).toBeCloseTo(350 / 60, 6);
    expect(input("preflight", c).maxMinutes).toBeCloseTo(350 / 60, 6);
    // The hard stop comes after the recipe's own budget, so its checkpoint and adapter are saved.
    expect(spec("train").deadlineSeconds(c)).toBeGreaterThan(350);
  });

  it("passes the preflight an earlier measurement when one stands for it, valid by the recipe's contract", () => {
    expect(input("preflight", ctx()).measured).toBeUndefined();
    const measured = {
      jobId: "j20261201120000-0123456789",
      measuredAt: "2026-12-01T12:00:00.000Z",
      cpus: 2,
      smokeStep: { batchSize: 4, length: 64, seconds: [0.5, 0.25], loss: 2.5, tokensPerSecond: 1024, longestFirst: true as const },
      memory: { runtime: 300, weights: 400, lora: 10, optimizer: 10, activations: 80, total: 800 },
      lengthUsed: 64,
      setupSeconds: 4,
    };
    const given = input("preflight", ctx({ measured }));
    expect(given.measured).toEqual(measured);
    expect(jobContract("llm-lora", "preflight")!.input.safeParse(given).success).toBe(true);
    expect(input("train", ctx({ measured })).measured).toBeUndefined();
  });

  it("continues training from the stopped attempt's checkpoints when it resumes one", () => {
    expect(input("train", ctx()).resumeFrom).toBeUndefined();
    const ref = "checkpoints:j20261201120000-0123456789";
    expect(input("train", ctx({ resumeFrom: ref })).resumeFrom).toBe(ref);
  });

  it("reuses the first attempt's checks and preflight in every resumed attempt, so each trains on the same split", () => {
    const first = ctx({ opId: "op-first-1" });
    const again = ctx({ opId: resumedOpId(resumedOpId("op-first-1")) });
    for (const step of ["check_data", "preflight"] as const) {
      expect(spec(step).sharedOpId!(again)).toBe(`op-first-1:${step}`);
      expect(spec(step).sharedOpId!(first)).toBe(`op-first-1:${step}`);
    }
    expect(spec("train").sharedOpId).toBeUndefined();
  });

  it("imports one base once: the same upload or path on the same computer shares its import job", () => {
    const key = (base: TBaseModelSource, targetId = "t1") => spec("import_base").sharedOpId!(ctx({ targetId }, { base }));
    expect(key(GGUF)).toBe(key({ ...GGUF, fileName: "renamed.gguf" }));
    expect(key(GGUF, "t1")).not.toBe(key(GGUF, "t2"));
    expect(key({ kind: "path", path: "/models/gpt2" })).toBe(key({ kind: "path", path: "/models/gpt2" }));
    expect(key({ kind: "path", path: "/models/gpt2" }, "t1")).not.toBe(key({ kind: "path", path: "/models/gpt2" }, "t2"));
    expect(key({ kind: "path", path: "/models/gpt2" })).not.toBe(key({ kind: "path", path: "/models/other" }));
    const files = (order: "ab" | "ba") => ({
      kind: "folder_upload" as const,
      name: "m",
      files: order === "ab" ? [{ path: "a", sha256: hex("1") }, { path: "b", sha256: hex("2") }] : [{ path: "b", sha256: hex("2") }, { path: "a", sha256: hex("1") }],
    });
    expect(baseIdentity(files("ab"), "t1")).toBe(baseIdentity(files("ba"), "t1"));
  });

  it("copies an uploaded base and the evaluation file to a server, besides the dataset", () => {
    expect(LORA.blobs!(ctx())).toEqual([]);
    expect(LORA.blobs!(ctx({ evalSnapshotSha256: hex("b") }, { base: GGUF }))).toEqual([hex("b"), hex("e")]);
  });
});
