/**
 * Improve within a budget, as a person meets it: the wizard's Improve option with 2 trials,
 * both at once, and 3 minutes starts a search and opens its page; Pause and Resume answer at once; the
 * trials appear in the table and the chart; the search ends on the verdict in words with
 * its one test score and a link to the final experiment; the Searches tab lists it. The
 * same page at a phone's width shows the verdict on the first screen. Real worker and
 * recipes on penguins; axe on each page.
 */
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectNoHorizontalOverflow } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const stepHeading = (page: Page, n: number) => page.getByRole("heading", { name: new RegExp(`^Step ${n} of 6`) });

async function startSearch(page: Page): Promise<string> {
  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await expect(stepHeading(page, 1)).toBeVisible();
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
  await page.getByLabel(/Improve within a budget/).check();
  await page.getByLabel("Max minutes (whole search)").fill("3");
  await page.getByLabel("Max trials").fill("2");
  await expect(page.getByLabel("Minimum useful gain (optional)")).toHaveAccessibleDescription(/better than the baseline/);
  await expect(page.getByTestId("budget-summary")).toContainText("at most 3 minutes and 2 trials (each at most 1.5 min)");
  // Both at once: one round, so each trial may take the whole search.
  await expect(page.getByLabel("Trials at once")).toHaveAccessibleDescription(/even share of the computer's CPUs/);
  await page.getByLabel("Trials at once").fill("2");
  await expect(page.getByTestId("budget-summary")).toContainText("at most 3 minutes and 2 trials (2 at once, each at most 3 min)");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 6)).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "Improve: a search of at most 2 trials (2 at once) and 3 min" })).toBeVisible();
  await page.getByRole("button", { name: "Start the search" }).click();
  await page.waitForURL(/\/ml\/searches\/[^/]+$/);
  return page.url();
}

test("Improve within a budget runs a search to a verdict with one test score", async ({ page }, testInfo) => {
  test.setTimeout(8 * 60_000);
  await createProject(page, `Search ${testInfo.project.name} ${Date.now()}`);
  const url = await startSearch(page);
  const status = page.getByTestId("search-status");
  await expect(status).toContainText(/Running|Finished|Scoring/);

  // Pause and Resume send the revision the page read and answer at once.
  if ((await status.textContent())?.startsWith("Running")) {
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(status).toContainText("Paused");
    await expect(page.getByTestId("search-budget")).toContainText(/Time used: .* of 3 min 0 s/);
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(status).toContainText(/Running|Scoring|Finished/);
    // Stop asks first; keeping the search changes nothing.
    const stop = page.getByRole("button", { name: "Stop search" });
    if (await stop.isVisible()) {
      await stop.click();
      await expect(page.getByRole("group", { name: "Confirm stop" })).toBeVisible();
      await page.getByRole("button", { name: "Keep searching" }).click();
      await expect(page.getByRole("group", { name: "Confirm stop" })).toHaveCount(0);
    }
  }

  // Trials appear as they are booked; the search ends on the verdict in words.
  const rows = page.getByTestId("trial-row");
  await expect(rows.first()).toBeVisible({ timeout: 2 * 60_000 });
  const headline = page.getByTestId("search-verdict-headline");
  await expect(headline).toHaveText(/^(Trial [12] \((GBM|CAT|RF|XT)\) was chosen: validation accuracy [\d.]+ against the baseline's [\d.]+\.|Keep the baseline: .+)$/, { timeout: 4 * 60_000 });
  // The verdict shows while the choice is scored on test; the one test score follows.
  await expect(status).toContainText("Finished", { timeout: 3 * 60_000 });
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row).toContainText("Scored on validation");
  await expect(rows.first()).toContainText(/Planner \((random start|TPE)\)/);
  await expect(rows.first()).toContainText(/(GBM|CAT|RF|XT) \w+=/);
  const testResult = page.getByTestId("search-test-result");
  if ((await headline.textContent())!.startsWith("Trial")) {
    await expect(testResult).toHaveText(/^On the test rows, scored once: accuracy [\d.]+ against the baseline's [\d.]+ on \d+ test rows\.$/);
    await expect(page.locator('[data-testid="trial-row"][data-chosen="true"]')).toContainText("chosen");
    await expect(page.getByRole("link", { name: "Open the chosen model’s experiment" })).toHaveAttribute("href", /\/ml\/experiments\/[^/]+$/);
  } else {
    await expect(testResult).toHaveText(/^The baseline on the test rows, scored once: accuracy [\d.]+/);
  }
  await expect(page.getByTestId("trials-chart-summary")).toContainText("2 of 2 trials scored on validation");
  await expect(page.getByTestId("trials-chart-summary")).toContainText("the baseline got");
  await expect(page.getByRole("button", { name: /Pause|Resume|Stop search/ })).toHaveCount(0);
  await page.getByTestId("search-spec").locator("summary").click();
  await expect(page.getByRole("list", { name: "Search space" })).toContainText("family: GBM, CAT, RF, XT");
  await expect(page.getByTestId("search-spec")).toContainText("2, each with an even share of the computer's CPUs");
  await expectNoSeriousAxeViolations(page);

  // The Searches tab lists it with its trials and best validation score.
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Searches" }).click();
  const listed = page.getByTestId("search-row");
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(/Finished · 2 of 2 trials · best validation Accuracy: [\d.]+ \(trial [12]\)/);
  await expectNoSeriousAxeViolations(page);

  // At a phone's width: the verdict on the first screen, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await expect(headline).toBeInViewport();
  await expect(testResult).toBeInViewport();
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath("search-phone-first-screen.png") });
});
