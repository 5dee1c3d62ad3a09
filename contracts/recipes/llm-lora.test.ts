// The llm-lora contracts against files the recipe really wrote: fixtures/llm-lora/*.json are
// the outputs of one CPU run of every job on the tiny GPT-2 (fixtures/llm-lora/make_fixtures.py
// says how to write them again), named <job>[.<variant>].<file>.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RECIPES } from "./index";
import { ZLoraReceipt } from "./evaluation-lm";
import { ZLoraBase, ZLoraExport, ZLoraExportVerification, ZLoraPreflight, ZLoraTraining } from "./llm-lora";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "llm-lora");
const jobs = RECIPES["llm-lora"];
type Job = keyof typeof jobs;

const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".json"))
  .map((name) => {
    const [job, ...rest] = name.split(".");
    return { name, job: job as Job, file: rest.slice(-2).join("."), json: JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as unknown };
  });
const fixture = (name: string) => fixtures.find((f) => f.name === name)!.json;

describe("llm-lora output contracts and the files the recipe writes", () => {
  it("has a real output for every JSON file every llm-lora job declares", () => {
    const declared = Object.entries(jobs).flatMap(([job, c]) => Object.keys(c.outputs).map((file) => `${job} ${file}`));
    const present = new Set(fixtures.map((f) => `${f.job} ${f.file}`));
    expect(declared.filter((d) => !present.has(d))).toEqual([]);
  });

  for (const f of fixtures) {
    it(`${f.name} parses with ${f.job}'s ${f.file} schema`, () => {
      const outputs: Record<string, { safeParse: (v: unknown) => { success: boolean; error?: { issues: unknown } } }> = jobs[f.job].outputs;
      expect(outputs[f.file], `${f.job} declares ${f.file}`).toBeDefined();
      const parsed = outputs[f.file]!.safeParse(f.json);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    });
  }

  it("a folder import cannot claim a GGUF quantization, and a GGUF import must name one", () => {
    const folder = ZLoraBase.parse(fixture("import_base.base.json"));
    expect(folder.source).toBe("folder");
    expect(ZLoraBase.safeParse({ ...folder, dequantizedFrom: "Q4_1" }).success).toBe(false);
    expect(ZLoraBase.safeParse({ ...folder, source: "gguf" }).success).toBe(false);
    const gguf = ZLoraBase.parse(fixture("import_base.gguf.base.json"));
    expect(gguf).toMatchObject({ source: "gguf", dequantizedFrom: "Q4_1" });
    expect(ZLoraBase.safeParse({ ...gguf, dequantizedFrom: null }).success).toBe(false);
  });

  it("a preflight that fits carries its measured step, and one that does not carries the settings that would fit", () => {
    const fits = ZLoraPreflight.parse(fixture("preflight.preflight.json"));
    expect(fits.memory.fits).toBe(true);
    const { smokeStep: _s, time: _t, ...unmeasured } = fits as Extract<typeof fits, { smokeStep: unknown }>;
    expect(ZLoraPreflight.safeParse(unmeasured).success).toBe(false);
    const tooBig = { ...unmeasured, memory: { ...fits.memory, fits: false, fitting: [{ batchSize: 1, maxLength: 64 }] } };
    expect(ZLoraPreflight.safeParse(tooBig).success).toBe(true);
    expect(ZLoraPreflight.safeParse({ ...fits, memory: tooBig.memory }).success).toBe(false);
  });

  it("a refused over-budget preflight still wrote its full report", () => {
    expect(ZLoraPreflight.parse(fixture("preflight.over-budget.preflight.json")).memory.fits).toBe(true);
  });

  it("training.json never records a SIGTERM stop (that attempt exits 130 and writes none)", () => {
    const training = ZLoraTraining.parse(fixture("train.training.json"));
    expect(training.stoppedBy).toBe("completed");
    expect(ZLoraTraining.safeParse({ ...training, stoppedBy: "signal" }).success).toBe(false);
  });

  it("an export names its base by hash and only records a verification that reproduced the receipt on CPU in fp32", () => {
    const summary = ZLoraExport.parse(fixture("export.export.json"));
    expect(summary.base).toMatchObject({ name: "tiny-gpt2", source: "folder", dequantizedFrom: null });
    expect(summary.fileName).toBe(`${summary.folder}.tar.gz`);
    const verification = ZLoraExportVerification.parse(fixture("export.verification.json"));
    expect(verification.absoluteDifference).toBeLessThanOrEqual(verification.tolerance);
    const receipt = ZLoraReceipt.parse(JSON.parse(readFileSync(path.join(FIXTURES, "..", "evaluation-lm", "score.receipt.json"), "utf8")));
    expect(verification.receiptMeanNll).toBe(receipt.adapter.meanNll);
    for (const bad of [{ verified: false }, { device: "cuda" }, { dtype: "bfloat16" }]) {
      expect(ZLoraExportVerification.safeParse({ ...verification, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("llm-lora input contracts", () => {
  it("refuses what the Python readers refuse: an unknown device, rank 0, an empty targetModules list, an unknown field", () => {
    const base = { model: "sha256:a", data: "sha256:b" };
    expect(jobs.train.input.safeParse(base).success).toBe(true);
    for (const bad of [{ device: "tpu" }, { rank: 0 }, { targetModules: [] }, { batchSize: 2.5 }, { learningRate: 2 }, { lora: true }]) {
      expect(jobs.train.input.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(jobs.check_data.input.safeParse({ ...base, evalFraction: 0.9 }).success).toBe(false);
    expect(jobs.import_base.input.safeParse({}).success).toBe(false);
  });

  it("import_base takes exactly one of a source or an uploaded folder's files, each at a relative path inside the folder", () => {
    const file = (path: string) => ({ path, file: "sha256:f" });
    expect(jobs.import_base.input.safeParse({ source: "sha256:a" }).success).toBe(true);
    expect(jobs.import_base.input.safeParse({ files: [file("config.json"), file("tokenizer/vocab.json")], name: "m" }).success).toBe(true);
    expect(jobs.import_base.input.safeParse({ source: "sha256:a", files: [file("config.json")] }).success).toBe(false);
    expect(jobs.import_base.input.safeParse({ files: [] }).success).toBe(false);
    for (const bad of ["../config.json", "/etc/passwd", "a/../../b", "a//b", "./config.json", "a\\b", ""]) {
      expect(jobs.import_base.input.safeParse({ files: [file(bad)] }).success, bad).toBe(false);
    }
  });
});
