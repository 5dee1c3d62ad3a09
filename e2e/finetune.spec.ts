/**
 * "Fine-tune a language model" through the built app with the real llm-lora recipe: the
 * tiny random GPT-2 copied into an allowed folder, 48 GSM8K examples uploaded as JSONL
 * (their preview as conversations), small settings under Advanced, Start; the run
 * finishes with the loss chart and base vs adapter from the receipt. A path outside the
 * allowed folders, then a folder that is not a model (refused by the server at Start),
 * each show their error under the model field. Try it answers a prompt with both models.
 * Registered and deployed, its deployment page's chat console streams an answer.
 * The project Overview then says it in LoRA terms. axe on each step, the results and the Overview.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { allowFolder, createProject, expectLaidOutAtScreenWidth, fineTuneStep, GSM8K_EXAMPLES, nextStep, TINY_GPT2 } from "./steps";

const GPT2 = path.resolve(TINY_GPT2);
const EXAMPLES = path.resolve(GSM8K_EXAMPLES);
// The six jobs take about 3 min on a 2-core machine under load (each starts Python and torch); the tiny model itself trains in seconds.
const RUN_TIMEOUT = 8 * 60_000;

test("fine-tune the tiny GPT-2 on JSONL examples: wizard, loss chart and base vs adapter by the receipt", async ({ page }, testInfo) => {
  test.setTimeout(14 * 60_000);
  const phone = testInfo.project.name === "phone";
  const root = mkdtempSync(path.join(os.tmpdir(), "trainyard-e2e-models-"));
  cpSync(GPT2, path.join(root, "gpt2"), { recursive: true });
  // A folder that is no model: its README but no config.json.
  const notAModel = path.join(root, "notes");
  mkdirSync(notAModel);
  copyFileSync(path.join(GPT2, "README.md"), path.join(notAModel, "README.md"));
  await allowFolder(page, root);
  await createProject(page, `Fine-tune ${testInfo.project.name} ${Date.now()}`);

  // Step 1: the computer and what it can do, with the honest word on CPU speed.
  await page.getByRole("link", { name: "Fine-tune a language model" }).first().click();
  await expect(fineTuneStep(page, 1)).toBeVisible();
  const ability = page.getByTestId("computer-ability");
  await expect(ability).toContainText("CPUs");
  await expect(ability).toContainText(/tokens\/s/);
  await expectNoSeriousAxeViolations(page);
  await nextStep(page);

  // Step 2: a path outside the allowed folders is flagged under the field at once.
  await expect(fineTuneStep(page, 2)).toBeVisible();
  const modelPath = page.getByLabel("Model folder or .gguf file on the training computer");
  await modelPath.fill("/etc/gpt2");
  await expect(page.getByTestId("ft-model-path-error")).toContainText("not inside an allowed folder");
  await expect(modelPath).toHaveAttribute("aria-invalid", "true");
  // A folder inside it without config.json: only the server can tell, at Start.
  await modelPath.fill(notAModel);
  await expect(page.getByTestId("ft-model-path-error")).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  await nextStep(page);

  // Step 3: the examples uploaded, previewed as conversations.
  await expect(fineTuneStep(page, 3)).toBeVisible();
  await page.getByLabel("Upload training examples (JSONL)").setInputFiles(EXAMPLES);
  await expect(page.getByText("gsm8k-prompt-completion.jsonl uploaded")).toBeVisible({ timeout: 60_000 });
  const conversations = page.getByRole("list", { name: "Training examples: first examples" });
  await expect(conversations.getByTestId("conversation").first()).toContainText("Assistant:", { timeout: RUN_TIMEOUT });
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
  await expectNoSeriousAxeViolations(page);
  // Long dataset names and conversations wrap: nothing pushes the page wider than a phone.
  if (phone) await expectLaidOutAtScreenWidth(page, 390);
  await nextStep(page);

  // Step 4: the recommended settings, made small for the tiny model under Advanced.
  await expect(fineTuneStep(page, 4)).toBeVisible();
  await expect(page.getByTestId("settings-summary")).toContainText("Recommended");
  await page.getByText("Advanced").click();
  await page.getByLabel("Max length (tokens per example)").fill("64");
  await page.getByLabel("Batch size").fill("4");
  await page.getByLabel("Learning rate").fill("0.01");
  await expect(page.getByTestId("settings-summary")).toContainText("up to 64 tokens");
  await expectNoSeriousAxeViolations(page);
  await nextStep(page);

  // Step 5: the budget.
  await expect(fineTuneStep(page, 5)).toBeVisible();
  await page.getByLabel("Max minutes (whole experiment)").fill("10");
  await page.getByLabel("Epochs").fill("1");
  await expect(page.getByTestId("budget-summary")).toContainText("10 minutes");
  await nextStep(page);

  // Step 6: Start with a folder that is not a model: the server's refusal lands under the field.
  await expect(fineTuneStep(page, 6)).toBeVisible();
  await expect(page.getByLabel("Review", { exact: true })).toContainText("gsm8k-prompt-completion.jsonl");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Start fine-tuning" }).click();
  await expect(fineTuneStep(page, 2)).toBeVisible();
  await expect(page.getByTestId("ft-model-path-error")).toContainText("config.json");
  await modelPath.fill(path.join(root, "gpt2"));
  await page.getByRole("button", { name: /^6\. Review and start/ }).click();
  await page.getByRole("button", { name: "Start fine-tuning" }).dblclick();
  await page.waitForURL(/\/ml\/experiments\/[^/]+$/);

  // The experiment page: status and progress while it runs, then the results.
  await expect(page.getByRole("progressbar", { name: "Training progress" })).toBeVisible();
  await expect(page.getByTestId("experiment-status")).toContainText("Succeeded", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("loss-chart")).toBeVisible();
  await expect(page.getByTestId("loss-summary")).toContainText(/Train loss \d+\.\d{3} at step \d+/);
  const verdict = page.getByTestId("finetune-verdict");
  await expect(verdict).toContainText(/^(Better than base|Not better than base)/);
  const table = page.getByRole("region", { name: "Base vs adapter table" });
  await expect(table.getByTestId("base-score").first()).toHaveText(/^\d+\.\d{4}$/);
  await expect(table.getByTestId("adapter-score").first()).toHaveText(/^\d+\.\d{4}$/);
  await expect(page.getByRole("list", { name: "Generations" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Preflight" })).toContainText("cpu: works");
  await expectNoSeriousAxeViolations(page);

  if (phone) {
    // Status, the verdict and the loss on the first screen of a phone, laid out at its width.
    const firstScreen = page.viewportSize()!.height;
    for (const el of [page.getByTestId("experiment-status"), verdict, page.getByRole("heading", { name: "Loss" })]) {
      expect((await el.boundingBox())!.y).toBeLessThan(firstScreen);
    }
    await expectLaidOutAtScreenWidth(page, 390);
  }

  // Try it: one prompt answered by the adapter and the base through a short job.
  await page.getByLabel("Prompt", { exact: true }).fill("Tom has 3 apples and buys 2 more. How many apples does he have?");
  await page.getByRole("button", { name: "Answer" }).click();
  const tried = page.getByTestId("try-result");
  await expect(tried).toContainText("With the adapter", { timeout: RUN_TIMEOUT });
  await expect(tried).toContainText("Base model");
  await expect(tried).toContainText(/Answered in \d+\.\d s/);

  // Registered and deployed (resident, where it was fine-tuned): the deployment page's chat
  // console streams an answer through the real route with a key made there.
  const modelName = `Math helper ${testInfo.project.name}`;
  const register = page.getByRole("region", { name: "Register as a model version" });
  await register.getByLabel("New model name").fill(modelName);
  await register.getByRole("button", { name: "Register this experiment" }).click();
  await expect(register.getByTestId("register-result")).toContainText(`Registered as version 1 of “${modelName}”`);
  await register.getByRole("link", { name: "Open Models" }).click();
  await page.getByRole("region", { name: modelName }).getByRole("button", { name: "Deploy version 1" }).click();
  const sheet = page.getByRole("dialog", { name: "Deploy version 1?" });
  // A fine-tune is served resident only: the sheet offers no "On demand" the server would refuse.
  await expect(sheet.getByRole("radio", { name: /On demand|Resident/ })).toHaveCount(0);
  await expect(sheet.getByText(/On demand/)).toHaveCount(0);
  await expect(sheet.getByTestId("deploy-mode")).toContainText("Resident");
  await sheet.getByRole("button", { name: "Deploy version 1" }).click();
  await page.waitForURL(/\/ml\/deployments\/[^/]+$/);
  await expect(page.getByTestId("deployment-state")).toHaveText("ready", { timeout: 3 * 60_000 });
  await expect(page.getByTestId("curl-example")).toContainText(/curl -N -X POST '.*\/stream'/);
  // No key made by hand: the chat console sends a console key of its own.
  const chat = page.getByRole("form", { name: "Chat console" });
  await chat.getByLabel("Message").fill("Tom has 3 apples and buys 2 more. How many apples does he have?");
  await chat.getByRole("button", { name: "Send to the deployment" }).click();
  await expect(chat.getByTestId("chat-outcome")).toContainText(/^\d+ tokens from release 1, version 1: /, { timeout: 60_000 });
  await expect(chat.getByTestId("chat-user")).toHaveCount(1);
  await expect(chat.getByTestId("chat-assistant")).toHaveCount(1);
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectLaidOutAtScreenWidth(page, 390);
  // Switch… and Stop… are one tap away, on a phone too; with one version there is nothing to switch to, and the confirmation says so.
  for (const name of ["Switch…", "Stop…"]) expect((await page.getByRole("button", { name, exact: true }).boundingBox())?.height).toBeGreaterThanOrEqual(40);
  await page.getByRole("button", { name: "Switch…", exact: true }).click();
  const switchDialog = page.getByRole("alertdialog", { name: /^Switch / });
  await expect(switchDialog).toContainText("no other registered version");
  if (phone) await expectLaidOutAtScreenWidth(page, 390);
  await switchDialog.getByRole("button", { name: "Cancel" }).click();
  // Stopped, so its serving process does not hold memory for the specs after this one.
  await page.getByRole("button", { name: "Stop…" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Stop it" }).click();
  await expect(page.getByTestId("deployment-state")).toHaveText("stopped", { timeout: 60_000 });

  // The double click started one experiment, listed as a fine-tuning one.
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Experiments" }).click();
  await expect(page.getByTestId("experiment-row")).toHaveCount(1);
  await expect(page.getByTestId("experiment-row")).toContainText("Fine-tuned");

  // The project Overview speaks of the fine-tune in its own terms: base model, adapter, loss per answer token.
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByTestId("overview-improving")).toContainText(/^Fine-tuning \S+ with a LoRA adapter \(rank \d+\) on \d+ training examples, measured by the mean loss per answer token/);
  await expect(page.getByTestId("overview-better")).toContainText(/^(Yes|No): the adapter's mean loss per answer token is \d+\.\d{3} against the base model's \d+\.\d{3}/);
  await expect(page.getByText(/training steps at \d+ tokens\/s/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Download the adapter" })).toBeVisible();
  await expect(page.getByText(/Predicting|baseline/)).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectLaidOutAtScreenWidth(page, 390);
});
