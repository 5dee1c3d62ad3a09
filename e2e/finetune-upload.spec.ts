/**
 * The fine-tuning wizard's base model sent from the browser: a .gguf file chosen on this
 * device is uploaded with progress and stored by its SHA-256, and the review names it; a
 * file whose bytes are not GGUF is refused by the server, next to the field, and a file
 * that is not named .gguf is refused before anything is sent; a reload keeps the sent file
 * as the wizard's choice. (Training from a sent GGUF
 * is the CLI's SmolLM2 test: the start input is the same `gguf_upload`.) axe on the step.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject } from "./steps";

test("a .gguf file sent from the browser is the base model; bytes that are not GGUF are refused next to the field", async ({ page }, testInfo) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "trainyard-e2e-gguf-"));
  // The GGUF magic and version 3, then bytes: the upload checks the magic; the import reads the rest.
  const gguf = Buffer.concat([Buffer.from("GGUF"), Buffer.from([3, 0, 0, 0]), Buffer.alloc(256 * 1024, 7)]);
  const good = path.join(dir, "tiny.Q4_1.gguf");
  writeFileSync(good, gguf);
  const html = path.join(dir, "model.gguf");
  writeFileSync(html, "<html>not found</html>");
  const notNamed = path.join(dir, "weights.bin");
  writeFileSync(notNamed, gguf);

  await createProject(page, `GGUF ${testInfo.project.name} ${Date.now()}`);
  await page.getByRole("link", { name: "Fine-tune a language model" }).first().click();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: /^Step 2 of 6/ })).toBeVisible();
  await page.getByLabel("A .gguf file on this device (sent from the browser)").check();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  const picker = page.getByLabel("GGUF file (llama.cpp, Ollama); it is dequantized on import");

  await picker.setInputFiles(notNamed);
  await expect(page.getByRole("alert").filter({ hasText: "weights.bin is not a .gguf file" })).toBeVisible();
  await picker.setInputFiles(html);
  await expect(page.getByRole("alert").filter({ hasText: "model.gguf is not a GGUF file" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();

  await picker.setInputFiles(good);
  await expect(page.getByRole("status").filter({ hasText: "tiny.Q4_1.gguf stored" })).toBeVisible();
  const sha = createHash("sha256").update(gguf).digest("hex");
  await expect(page.getByTestId("ft-model-stored")).toContainText(sha.slice(0, 12));
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: /^6\. Review and start/ }).click();
  const sentLabel = `tiny.Q4_1.gguf (sent from this browser, 0.3 MB, SHA-256 ${sha.slice(0, 12)}…)`;
  await expect(page.getByLabel("Review", { exact: true })).toContainText(sentLabel);
  // A reload keeps the sent file (its bytes stay on the server by their hash): nothing is sent again.
  await page.reload();
  await expect(page.getByRole("heading", { name: /^Step 6 of 6/ })).toBeVisible();
  await expect(page.getByLabel("Review", { exact: true })).toContainText(sentLabel);
});
