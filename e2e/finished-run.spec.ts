/**
 * The first run as a new user meets it, after training: the finished page opens on the
 * verdict in words (on a phone within the first screen), then the chart, the mistakes,
 * resources, and the log folded away with the library noise hidden (the full log still
 * downloadable). The leaderboard marks the kept model without clipping names. Try a
 * prediction takes an out-of-range number with a warning and drops a stale result. Run
 * again and Cancel ask first; a cancelled run says so in its phases, badges and steps;
 * the Overview speaks of that same run; the wizard preselects the project's only dataset.
 * Real recipes on penguins; axe on each page.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectNoHorizontalOverflow } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const TRAINING_TIMEOUT = 10 * 60_000;
const stepHeading = (page: Page, n: number) => page.getByRole("heading", { name: new RegExp(`^Step ${n} of 6`) });
const top = async (l: Locator) => (await l.boundingBox())!.y;

/** The wizard with the recommended choices and a 2-minute quick baseline; returns the experiment's URL. */
async function trainPenguins(page: Page): Promise<string> {
  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await expect(stepHeading(page, 1)).toBeVisible();
  // "CPUs", not "CPUS": the label is not upper-cased by CSS.
  const cpus = page.getByLabel("Capacity of the training computer").getByText("CPUs", { exact: true });
  await expect(cpus).toBeVisible();
  expect(await cpus.evaluate((el) => getComputedStyle(el).textTransform)).toBe("none");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 2)).toBeVisible();
  await page.getByLabel("Upload a file").setInputFiles(PENGUINS);
  await expect(page.getByText("penguins.csv uploaded")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled({ timeout: 5 * 60_000 });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 3)).toBeVisible();
  await page.getByLabel("Column to predict (target)").selectOption("species");
  await expect(page.getByText(/Suggested task: Multiclass classification/)).toBeVisible({ timeout: 5 * 60_000 });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 4)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 5)).toBeVisible();
  await page.getByLabel(/Quick baseline/).check();
  await page.getByLabel("Max minutes (whole experiment)").fill("2");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 6)).toBeVisible();
  await page.getByRole("button", { name: "Start training" }).click();
  await page.waitForURL(/\/ml\/experiments\/[^/]+$/);
  return page.url();
}

test("a finished run opens on the verdict, hides library noise and asks before Run again and Cancel", async ({ page }, testInfo) => {
  test.setTimeout(20 * 60_000);
  const phone = testInfo.project.name === "phone";
  await createProject(page, `Verdict ${testInfo.project.name} ${Date.now()}`);
  const experimentUrl = await trainPenguins(page);
  await expect(page.getByTestId("experiment-status")).toContainText("Succeeded", { timeout: TRAINING_TIMEOUT });

  // The verdict first, in words, on the first screen of a phone.
  await page.reload();
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  const headline = page.getByTestId("verdict-headline");
  await expect(headline).toHaveText(/^(Predicts species correctly|Averaged over the classes, finds the right species) \d+ % of the time.*; always guessing (Adelie|Chinstrap|Gentoo) gets \d+ %\.$/);
  await expect(page.getByTestId("verdict-judgement")).toHaveText(/^(Better than the baseline on the same \d+ test rows\.|Not better than the baseline)/);
  const box = (await headline.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  await expect(verdict.getByRole("list", { name: "Outcome" })).toContainText("Training finished");

  // Then the chart, what the model got wrong, resources; the log last, folded.
  const chart = page.getByTestId("result-chart");
  const mistakes = page.getByTestId("mistakes");
  const resources = page.getByRole("region", { name: "Resources per step" });
  const log = page.getByTestId("log-panel");
  await expect(chart.getByRole("region", { name: "Confusion matrix table" })).toContainText("Adelie");
  const ys = [await top(verdict), await top(chart), await top(mistakes), await top(resources), await top(log)];
  expect([...ys].sort((a, b) => a - b)).toEqual(ys);
  await expect(log).not.toHaveAttribute("open");

  // The mistakes carry the row's own values (the receipt names rows by id only).
  const wrongRows = mistakes.getByTestId("mistake-row");
  if ((await wrongRows.count()) > 0) {
    await expect(mistakes.getByRole("columnheader", { name: "island" })).toBeVisible();
    await expect(wrongRows.first()).toContainText(/Torgersen|Biscoe|Dream/);
  } else {
    await expect(mistakes).toContainText("every test row was predicted correctly");
  }

  // The leaderboard marks the kept model, shows whole names (wrapped, with a title), and says a tie.
  const board = page.getByTestId("leaderboard");
  const chosen = board.locator('[data-testid="leaderboard-row"][data-chosen="true"]');
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toContainText("chosen");
  for (const name of await board.getByRole("rowheader").all()) {
    const title = await name.getAttribute("title");
    expect(title && (await name.textContent())!.startsWith(title)).toBeTruthy();
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  }
  const scores = await board.getByTestId("leaderboard-row").evaluateAll((rows) => rows.map((r) => r.querySelectorAll("td")[1]?.textContent));
  const atTop = scores.filter((s) => s === scores[0]).length;
  if (scores.length > 1 && atTop === scores.length) await expect(board.getByTestId("leaderboard-tie")).toContainText(`All ${scores.length} candidates scored the same`);
  else if (atTop > 1) await expect(board.getByTestId("leaderboard-tie")).toContainText(`${atTop} of the ${scores.length} candidates tied for the best validation score`);
  else await expect(board.getByTestId("leaderboard-tie")).toHaveCount(0);

  await expectNoSeriousAxeViolations(page);
  if (phone) await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: testInfo.outputPath(`finished-${testInfo.project.name}-first-screen.png`) });
  await page.screenshot({ path: testInfo.outputPath(`finished-${testInfo.project.name}-full.png`), fullPage: true });

  // The log: AutoGluon's missing-torch probe and its model clean-up are hidden; the download has everything.
  await log.locator("summary").click();
  await page.getByLabel("Step", { exact: true }).selectOption("train");
  const text = page.getByLabel("Log of Training models");
  await expect(text).toContainText(/AutoGluon|Fitting|fit/i, { timeout: 60_000 });
  await expect(text).not.toContainText("Failed to import torch");
  await expect(text).not.toContainText("will be removed");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download the full log" }).click()]);
  const full = readFileSync(await download.path(), "utf8");
  writeFileSync(testInfo.outputPath("train.log"), full);
  expect(full.length).toBeGreaterThan((await text.textContent())!.length);
  if (/Failed to import torch|will be removed/.test(full)) await expect(page.getByTestId("log-hidden")).toContainText(/lines? of library noise hidden/);

  // Try a prediction: an out-of-range number is accepted with a warning; changing the input drops the old result.
  const bill = page.getByLabel(/^bill_length_mm/);
  await bill.fill("999");
  await expect(page.getByTestId("range-warning")).toContainText("Outside the range seen in training");
  await page.getByRole("button", { name: "Predict", exact: true }).click();
  await expect(page.getByTestId("try-result")).toContainText(/Prediction: (Adelie|Chinstrap|Gentoo)/, { timeout: 3 * 60_000 });
  await bill.fill("45");
  await expect(page.getByTestId("try-result")).toHaveCount(0);
  await expect(page.getByTestId("range-warning")).toHaveCount(0);

  // Run again asks first; "Not now" starts nothing.
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page.getByRole("group", { name: "Confirm run again" })).toBeVisible();
  await page.getByRole("button", { name: "Not now" }).click();
  await expect(page).toHaveURL(experimentUrl);
  await page.getByRole("button", { name: "Run again" }).click();
  await page.getByRole("button", { name: "Yes, run again" }).click();
  await page.waitForURL((u) => /\/ml\/experiments\/[^/]+$/.test(u.pathname) && u.href !== experimentUrl);
  const rerunName = (await page.getByRole("heading", { level: 2 }).first().textContent())!.trim();

  // Step states in plain words while it runs; Cancel asks first.
  await expect(page.getByTestId("step-row").first()).toBeVisible();
  await expect(page.getByRole("list", { name: "Steps" })).not.toContainText(/\b(admitted|queued)\b/);
  await page.getByRole("button", { name: "Cancel training" }).click();
  await expect(page.getByRole("group", { name: "Confirm cancel" })).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel training" }).click();
  await expect(page.getByTestId("experiment-status")).toContainText("Cancelled", { timeout: 3 * 60_000 });

  // A cancelled run: said first, never "Training finished", no finished or green training.
  await expect(page.getByTestId("outcome-summary")).toHaveText("You cancelled this run; nothing it trained is kept.");
  await expect(page.getByRole("list", { name: "Outcome" })).not.toContainText("Training finished");
  await expect(page.getByTestId("phase-training")).not.toHaveAttribute("data-state", "done");
  await page.getByText("Steps", { exact: true }).click();
  await expect(page.locator('[data-testid="step-row"][data-step="train"]')).not.toContainText(/finished/);
  await expect(page.getByTestId("log-panel")).not.toHaveAttribute("open");
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectNoHorizontalOverflow(page);

  // The Overview: both cards speak of that run, and a cancelled run is not "nothing finished".
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByTestId("overview-improving")).toContainText(rerunName);
  await expect(page.getByTestId("overview-better")).toContainText(`${rerunName} was cancelled before it was scored`);
  await expect(page.getByText("No experiment has finished yet")).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);

  // The wizard preselects the project's only dataset.
  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await expect(stepHeading(page, 1)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 2)).toBeVisible();
  await expect(page.getByLabel("Or reuse a dataset of this project")).not.toHaveValue("");
  await expect(page.getByRole("region", { name: "First rows of the data" })).toContainText("Torgersen", { timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled({ timeout: 60_000 });
});

test("the app has a favicon", async ({ page }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toMatch(/icon\.svg/);
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
});
