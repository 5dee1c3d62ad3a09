/**
 * The fine-tune wizard's rough edges (issue 35), with the real llm-lora recipe and nothing
 * mocked: the wizard reloaded mid-way keeps its choices (base model, data, budget, the step
 * cap, the fit-to-budget box); with the box unticked, a run whose budget cannot hold its steps
 * is refused by the real preflight, its page says so with the fix, and the one tap "Run again
 * with at most N steps" starts a new run capped at N, the N of the preflight's words; "Edit
 * settings…" opens the wizard at its review on the failed run's choices, and with the box
 * ticked (the default) the same run trains the steps that fit, its page saying how many. The
 * retry is cancelled before it trains (Run again then stays offered) and deleted; the fitted
 * run is cancelled once it trains. axe on the Budget step and the failed page; no sideways
 * scrolling on a phone.
 */
import { cpSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { allowFolder, createProject, expectLaidOutAtScreenWidth, fineTuneStep, GSM8K_EXAMPLES, nextStep, TINY_GPT2 } from "./steps";

const GPT2 = path.resolve(TINY_GPT2);
const EXAMPLES = path.resolve(GSM8K_EXAMPLES);
// Import, checks and preflight: each starts Python and torch, about a minute together on a loaded 2-core machine.
const REFUSAL_TIMEOUT = 6 * 60_000;

test("a reloaded wizard keeps its choices; a run over its budget offers the preflight's step cap as one tap", async ({ page }, testInfo) => {
  test.setTimeout(12 * 60_000);
  const phone = testInfo.project.name === "phone";
  const root = mkdtempSync(path.join(os.tmpdir(), "trainyard-e2e-retry-"));
  const model = path.join(root, "gpt2");
  cpSync(GPT2, model, { recursive: true });
  await allowFolder(page, root);
  await createProject(page, `Fine-tune retry ${testInfo.project.name} ${Date.now()}`);

  await page.getByRole("link", { name: "Fine-tune a language model" }).first().click();
  await expect(fineTuneStep(page, 1)).toBeVisible();
  await nextStep(page);
  await page.getByLabel("Model folder or .gguf file on the training computer").fill(model);
  await nextStep(page);
  await page.getByLabel("Upload training examples (JSONL)").setInputFiles(EXAMPLES);
  await expect(page.getByText("gsm8k-prompt-completion.jsonl uploaded")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled({ timeout: REFUSAL_TIMEOUT });
  await nextStep(page);
  await page.getByText("Advanced").click();
  await page.getByLabel("Max length (tokens per example)").fill("64");
  await nextStep(page);

  // The Budget step: three minutes leave training about one after the reserve for evaluation,
  // far too little for a million steps, and it says the preflight will check that.
  await expect(fineTuneStep(page, 5)).toBeVisible();
  await page.getByLabel("Max minutes (whole experiment)").fill("3");
  await page.getByLabel("Max steps (optional)").fill("1000000");
  await expect(page.getByTestId("budget-summary")).toContainText("at most 3 minutes and 1000000 steps");
  // By default steps that do not fit the minutes are fitted to them; unticked, the run stops before training.
  const fitBox = page.getByLabel("Train the steps that fit the minutes");
  await expect(fitBox).toBeChecked();
  await expect(page.getByTestId("budget-preflight")).toContainText("the run trains the steps that do");
  await fitBox.uncheck();
  await expect(page.getByTestId("budget-preflight")).toContainText("Run again with at most N steps");

  // Reloaded mid-way: the same step, the same base model, data and budget.
  await page.reload();
  await expect(fineTuneStep(page, 5)).toBeVisible();
  await expect(page.getByLabel("Max minutes (whole experiment)")).toHaveValue("3");
  await expect(page.getByLabel("Max steps (optional)")).toHaveValue("1000000");
  await expect(fitBox).not.toBeChecked();
  await expect(page.getByTestId("budget-cpu")).toContainText("no GPU");
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectLaidOutAtScreenWidth(page, 390);
  await nextStep(page);
  const review = page.getByLabel("Review", { exact: true });
  await expect(review).toContainText(model);
  await expect(review).toContainText("gsm8k-prompt-completion.jsonl");
  await expect(review).toContainText("up to 64 tokens");
  await expect(review).toContainText("1 epoch, at most 1000000 steps, at most 3 min");
  await expect(review).toContainText("stop before training and say how many fit");

  await page.getByRole("button", { name: "Start fine-tuning" }).click();
  await page.waitForURL(/\/ml\/experiments\/[^/]+$/);
  const refusedUrl = page.url();

  // The real preflight refuses; the page says why, and the fix is one button with its numbers.
  await expect(page.getByTestId("experiment-status")).toContainText("Failed", { timeout: REFUSAL_TIMEOUT });
  const said = page.getByTestId("run-error");
  await expect(said).toContainText(/this run needs about [\d.]+ min( \(at the speed an earlier preflight measured on this computer at [^)]+\))? but the budget is [\d.]+ min; maxSteps \d+ would fit/);
  const fix = page.getByRole("button", { name: /^Run again with at most \d+ steps?$/ });
  await expect(fix).toBeVisible();
  const steps = Number(/at most (\d+) step/.exec((await fix.textContent())!)![1]);
  expect(steps).toBeGreaterThanOrEqual(1);
  await expect(said).toContainText(`maxSteps ${steps} would fit`);
  await expect(page.getByRole("button", { name: "Run again", exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectLaidOutAtScreenWidth(page, 390);

  // Edit settings: the wizard opens at its review on this run's choices, each step a tap away.
  await page.getByRole("button", { name: "Edit settings…" }).click();
  await page.waitForURL(/\/ml\/finetune$/);
  await expect(fineTuneStep(page, 6)).toBeVisible();
  await expect(review).toContainText(model);
  await expect(review).toContainText("gsm8k-prompt-completion.jsonl");
  await expect(review).toContainText("1 epoch, at most 1000000 steps, at most 3 min");
  if (phone) await expectLaidOutAtScreenWidth(page, 390);
  await page.goto(refusedUrl);

  // A double tap starts one run, capped at the preflight's steps.
  await fix.dblclick();
  await page.waitForURL((url) => /\/ml\/experiments\/[^/]+$/.test(url.pathname) && url.href !== refusedUrl);
  await expect(page.getByText(`at most ${steps} steps`)).toBeVisible();

  // Cancelled before it trains (nothing here needs the training), it can run again or go.
  await page.getByRole("button", { name: "Cancel training" }).click();
  await page.getByRole("button", { name: "Yes, cancel training" }).click();
  await expect(page.getByTestId("experiment-status")).toContainText("Cancelled", { timeout: 3 * 60_000 });
  await expect(page.getByRole("button", { name: "Run again", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Delete…" }).click();
  await page.getByRole("button", { name: "Delete this experiment" }).click();
  await page.waitForURL(/\/ml\/experiments$/);
  // The refused run stays; the retry, deleted, is gone: one row.
  await expect(page.getByTestId("experiment-row")).toHaveCount(1);

  // The refused run again through Edit settings, with the box ticked: the preflight fits the
  // steps to the minutes and the run trains them, its page saying how many.
  await page.goto(refusedUrl);
  await page.getByRole("button", { name: "Edit settings…" }).click();
  await page.waitForURL(/\/ml\/finetune$/);
  await page.getByRole("button", { name: /^5\. Budget/ }).click();
  await fitBox.check();
  await nextStep(page);
  await expect(review).toContainText("train the steps that fit");
  await page.getByRole("button", { name: "Start fine-tuning" }).click();
  await page.waitForURL((url) => /\/ml\/experiments\/[^/]+$/.test(url.pathname) && url.href !== refusedUrl);
  const fitted = page.getByTestId("preflight-fitted");
  await expect(fitted).toContainText(/^Fitted to the budget: 1,000,000 steps would not fit the minutes, so the run trains [\d,]+\.$/, { timeout: REFUSAL_TIMEOUT });
  const trains = (await fitted.textContent())!.match(/trains ([\d,]+)\./)![1]!;
  await expect(page.getByRole("progressbar", { name: "Training progress" })).toBeVisible();
  await expect(page.getByText(new RegExp(`step \\d+ of ${trains.replace(/,/g, "")}\\b`))).toBeVisible({ timeout: REFUSAL_TIMEOUT });
  if (phone) await expectLaidOutAtScreenWidth(page, 390);
  await page.getByRole("button", { name: "Cancel training" }).click();
  await page.getByRole("button", { name: "Yes, cancel training" }).click();
  await expect(page.getByTestId("experiment-status")).toContainText("Cancelled", { timeout: 3 * 60_000 });
});
