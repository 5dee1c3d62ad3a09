import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FINETUNE_DEFAULTS } from "@/server/finetune/finetune.schema";
import { REPO } from "@/server/testing/server-harness";
import { CliError } from "../cli-error";
import { asksToResume, parseFineTuneArgs, parseResumeArgs } from "./args";

const TINY_GPT2 = path.join(REPO, "tests/fixtures/models/lm-buddy-fake-gpt2");

let dir: string;
let data: string;
let gguf: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "finetune-args-"));
  data = path.join(dir, "train.jsonl");
  writeFileSync(data, '{"prompt": "1+1?", "completion": "2"}\n');
  gguf = path.join(dir, "model.Q4_1.gguf");
  writeFileSync(gguf, "GGUF");
  mkdirSync(path.join(dir, "not-a-model"));
  writeFileSync(path.join(dir, "not-a-model", "tokenizer.json"), "{}");
  writeFileSync(path.join(dir, "notes.txt"), "hello");
});

function refusal(argv: string[], parse: (argv: string[]) => unknown = parseFineTuneArgs): CliError {
  try {
    parse(argv);
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
  throw new Error(`accepted: ${argv.join(" ")}`);
}

describe("trainyard finetune arguments", () => {
  it("takes a model folder with config.json, applying the shared defaults to unset settings", () => {
    const args = parseFineTuneArgs(["--model", TINY_GPT2, "--data", data]);
    expect(args.model).toEqual({ kind: "folder", dir: TINY_GPT2 });
    expect(args).toMatchObject({ data, eval: null, project: "Default", computer: null, out: ".", json: false });
    expect(args.settings).toMatchObject({
      rank: FINETUNE_DEFAULTS.rank,
      learningRate: FINETUNE_DEFAULTS.learningRate,
      maxLength: FINETUNE_DEFAULTS.maxLength,
      batchSize: FINETUNE_DEFAULTS.batchSize,
      epochs: FINETUNE_DEFAULTS.epochs,
      maxMinutes: FINETUNE_DEFAULTS.maxMinutes,
      device: "cpu",
    });
    expect(args.settings.answerPattern).toBeUndefined();
  });

  it("takes a .gguf file, a remote path, and every setting flag as the schema's field", () => {
    const args = parseFineTuneArgs([
      "--model", gguf, "--data", data, "--eval", data, "--computer", "gpu-box", "--json",
      "--max-minutes", "3.5", "--epochs", "2", "--max-steps", "40", "--rank", "8", "--lr", "1e-4",
      "--max-length", "256", "--batch-size", "2", "--eval-fraction", "0.2", "--answer-pattern", "#### (\\S+)", "--device", "cuda",
      "--fit-to-budget",
    ]);
    expect(args.model).toEqual({ kind: "gguf", file: gguf });
    expect(args).toMatchObject({ eval: data, computer: "gpu-box", json: true });
    expect(args.settings).toMatchObject({
      maxMinutes: 3.5, epochs: 2, maxSteps: 40, rank: 8, learningRate: 1e-4, maxLength: 256, batchSize: 2,
      evalFraction: 0.2, answerPattern: "#### (\\S+)", device: "cuda", fitToBudget: true,
    });
    // Without the flag a run over its budget is refused before training, naming the steps that fit.
    expect(parseFineTuneArgs(["--remote-model", "/m", "--data", data]).settings.fitToBudget).toBe(false);
    expect(parseFineTuneArgs(["--remote-model", "/models/smol", "--data", data]).model).toEqual({ kind: "remote", path: "/models/smol" });
  });

  it("wants exactly one of --model and --remote-model, and --data", () => {
    for (const argv of [["--data", data], ["--model", TINY_GPT2, "--remote-model", "/m", "--data", data]]) {
      const err = refusal(argv);
      expect(err.exitCode).toBe(2);
      expect(err.message).toContain("exactly one of --model or --remote-model");
    }
    expect(refusal(["--model", TINY_GPT2]).message).toContain("--data FILE.jsonl");
  });

  it("refuses a missing model, a folder without config.json and a file that is not a .gguf", () => {
    expect(refusal(["--model", path.join(dir, "nope"), "--data", data])).toMatchObject({
      exitCode: 1,
      code: "file_unreadable",
      message: `--model ${path.join(dir, "nope")}: cannot read it (ENOENT).`,
    });
    const folder = refusal(["--model", path.join(dir, "not-a-model"), "--data", data]);
    expect(folder).toMatchObject({ exitCode: 1, code: "not_a_model" });
    expect(folder.message).toContain("is not a model folder: it has no config.json");
    expect(refusal(["--model", path.join(dir, "notes.txt"), "--data", data])).toMatchObject({
      code: "not_a_model",
      message: `--model ${path.join(dir, "notes.txt")} is neither a model folder nor a .gguf file.`,
    });
  });

  it("refuses an unreadable --data or --eval naming the flag", () => {
    expect(refusal(["--model", TINY_GPT2, "--data", path.join(dir, "missing.jsonl")])).toMatchObject({
      code: "file_unreadable",
      message: `--data: Cannot read ${path.join(dir, "missing.jsonl")}: ENOENT`,
    });
    expect(refusal(["--model", TINY_GPT2, "--data", data, "--eval", dir]).message).toBe(`--eval: ${dir} is not a regular file.`);
  });

  it("refuses numbers the shared schema refuses, naming the flag and the value", () => {
    const cases: [string, string, RegExp][] = [
      ["--rank", "0", /^--rank 0 is refused: .*>=1/],
      ["--rank", "1.5", /^--rank 1\.5 is refused: .*int/i],
      ["--lr", "2", /^--lr 2 is refused: .*<=1/],
      ["--max-length", "8", /^--max-length 8 is refused: .*>=16/],
      ["--batch-size", "0", /^--batch-size 0 is refused/],
      ["--max-minutes", "0", /^--max-minutes 0 is refused/],
      ["--eval-fraction", "0.9", /^--eval-fraction 0\.9 is refused/],
      ["--epochs", "abc", /^--epochs needs a number \(got "abc"\)\.$/],
      ["--rank", "", /^--rank needs a number \(got ""\)\.$/],
      ["--rank", "0x10", /^--rank needs a number/],
      ["--device", "tpu", /^--device tpu is refused/],
      ["--answer-pattern", "#### \\S+", /^--answer-pattern #### \\S\+ is refused: The answer pattern must be a regular expression with one group/],
      ["--answer-pattern", "(unclosed", /^--answer-pattern \(unclosed is refused/],
    ];
    for (const [flag, value, message] of cases) {
      const err = refusal(["--model", TINY_GPT2, "--data", data, flag, value]);
      expect(err.exitCode, `${flag} ${value}`).toBe(2);
      expect(err.message, `${flag} ${value}`).toMatch(message);
    }
  });

  it("checks the settings before the files, so a typo in a number costs no disk read", () => {
    expect(refusal(["--model", path.join(dir, "nope"), "--data", data, "--rank", "0"]).message).toMatch(/^--rank 0/);
  });
});

describe("trainyard finetune --resume arguments", () => {
  const resumeRefusal = (argv: string[]) => refusal(argv, parseResumeArgs);

  it("takes the experiment id with where to save and how to print, in either flag form", () => {
    expect(asksToResume(["--resume", "exp1"])).toBe(true);
    expect(asksToResume(["--resume=exp1"])).toBe(true);
    expect(asksToResume(["--model", TINY_GPT2, "--data", "x.jsonl"])).toBe(false);
    expect(parseResumeArgs(["--resume", "exp1"])).toEqual({ experimentId: "exp1", out: ".", json: false });
    expect(parseResumeArgs(["--resume=exp1", "--out", "/tmp/o", "--json"])).toEqual({ experimentId: "exp1", out: "/tmp/o", json: true });
  });

  it("refuses a missing id and any flag that would change the stopped experiment's data or settings", () => {
    for (const argv of [["--resume"], ["--resume", "--json"]]) {
      expect(resumeRefusal(argv)).toMatchObject({ exitCode: 2, message: expect.stringMatching(/^Name the experiment to resume: --resume EXPERIMENT_ID/) as string });
    }
    expect(resumeRefusal(["--resume", "exp1", "--data", data, "--rank", "4"])).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^--resume continues the stopped experiment with its own data, base model and settings: leave out --data, --rank\./) as string,
    });
  });
});
