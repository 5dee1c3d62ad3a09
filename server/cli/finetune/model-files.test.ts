import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listModelFolder } from "./model-files";

describe("the files of a model folder", () => {
  it("lists every regular file by its path in the folder, following links (a Hugging Face cache snapshot) and leaving out dot files", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "model-files-"));
    const blobs = path.join(root, "blobs");
    mkdirSync(blobs);
    writeFileSync(path.join(blobs, "b1"), "{}");
    writeFileSync(path.join(blobs, "b2"), "weights!");
    const model = path.join(root, "snapshot");
    mkdirSync(path.join(model, "tokenizer"), { recursive: true });
    mkdirSync(path.join(model, ".cache", "huggingface"), { recursive: true });
    symlinkSync(path.join(blobs, "b1"), path.join(model, "config.json"));
    symlinkSync(path.join(blobs, "b2"), path.join(model, "model.safetensors"));
    symlinkSync(path.join(blobs, "gone"), path.join(model, "dangling.bin"));
    writeFileSync(path.join(model, "tokenizer", "vocab.json"), "[1]");
    writeFileSync(path.join(model, ".gitattributes"), "*.bin lfs");
    writeFileSync(path.join(model, ".cache", "huggingface", "download.lock"), "");
    expect(listModelFolder(model)).toEqual([
      { path: "config.json", absolutePath: path.join(model, "config.json"), bytes: 2 },
      { path: "model.safetensors", absolutePath: path.join(model, "model.safetensors"), bytes: 8 },
      { path: "tokenizer/vocab.json", absolutePath: path.join(model, "tokenizer", "vocab.json"), bytes: 3 },
    ]);
  });
});
