/**
 * "Train a prediction model", the whole journey on penguins (the smallest real dataset)
 * with the real recipes: upload, target `species`, the recommended actions accepted, a
 * quick training with a 2-minute budget, results with the confusion matrix, a typed
 * prediction, a predicted file, the export downloaded and its checksum checked; Start
 * double-clicked (one experiment); a second run cancelled. axe on every wizard step and
 * on the results page. The recipe environments come from the shared .tmp/envs.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page, type Request } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectNoHorizontalOverflow, trpcMutation, trpcQuery } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const TRAINING_TIMEOUT = 10 * 60_000;

const stepHeading = (page: Page, n: number) => page.getByRole("heading", { name: new RegExp(`^Step ${n} of 6`) });

test("train on penguins, inspect, predict, export, run again and cancel", async ({ page }, testInfo) => {
  test.setTimeout(20 * 60_000);
  const project = `Penguins ${testInfo.project.name} ${Date.now()}`;
  await createProject(page, project);

  // Step 1: the computer, with its capacity from the probe.
  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await expect(stepHeading(page, 1)).toBeVisible();
  await expect(page.getByLabel("Capacity of the training computer")).toContainText("CPUs");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Next" }).click();

  // Step 2: upload with progress, then the first rows.
  await expect(stepHeading(page, 2)).toBeVisible();
  await page.getByLabel("Upload a file").setInputFiles(PENGUINS);
  await expect(page.getByText("penguins.csv uploaded")).toBeVisible({ timeout: 60_000 });
  const preview = page.getByRole("region", { name: "First rows of the data" });
  await expect(preview).toContainText("Torgersen", { timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled({ timeout: 5 * 60_000 });
  await expectNoSeriousAxeViolations(page);
  if (testInfo.project.name === "phone") await expectNoHorizontalOverflow(page);
  await page.getByRole("button", { name: "Next" }).click();

  // Step 3: target, with the suggested task and metric and their reasons.
  await expect(stepHeading(page, 3)).toBeVisible();
  await page.getByLabel("Column to predict (target)").selectOption("species");
  await expect(page.getByText(/Suggested task: Multiclass classification/)).toBeVisible({ timeout: 5 * 60_000 });
  await expect(page.getByText(/Suggested metric:/)).toBeVisible();
  await expect(page.getByLabel("Task")).toHaveValue("multiclass");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Next" }).click();

  // Step 4: the data issues, recommended actions already selected.
  await expect(stepHeading(page, 4)).toBeVisible();
  const actionable = page.getByTestId("data-issue").getByRole("checkbox");
  for (const box of await actionable.all()) await expect(box).toBeChecked();
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Next" }).click();

  // Step 5: quick baseline with a short budget; the summary names computer, limits and data.
  await expect(stepHeading(page, 5)).toBeVisible();
  await page.getByLabel(/Quick baseline/).check();
  await page.getByLabel("Max minutes (whole experiment)").fill("2");
  await expect(page.getByTestId("budget-summary")).toContainText("This computer");
  await expect(page.getByTestId("budget-summary")).toContainText("2 minutes");
  await expect(page.getByTestId("budget-summary")).toContainText("managed store");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Next" }).click();

  // Step 6: review, then a double click on Start makes one experiment.
  await expect(stepHeading(page, 6)).toBeVisible();
  await expect(page.getByLabel("Review", { exact: true })).toContainText("species");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Start training" }).dblclick();
  await page.waitForURL(/\/ml\/experiments\/[^/]+$/);
  const experimentUrl = page.url();
  const experimentId = experimentUrl.split("/").pop()!;

  const bar = page.getByRole("progressbar", { name: "Experiment progress" });
  await expect(bar).toHaveAttribute("aria-valuenow", /\d+/);
  await expectNoSeriousAxeViolations(page);

  await expect(page.getByTestId("experiment-status")).toContainText("Succeeded", { timeout: TRAINING_TIMEOUT });
  await expect(bar).toHaveAttribute("aria-valuenow", "100");
  const outcome = page.getByRole("list", { name: "Outcome" });
  await expect(outcome).toContainText("Training finished");
  await expect(outcome).toContainText("Evaluation passed");
  await expect(outcome).toContainText(/Better than baseline|Not better than baseline|Not comparable/);
  const matrix = page.getByRole("region", { name: "Confusion matrix table" });
  await expect(matrix).toContainText("Adelie");
  await expect(matrix).toContainText("Gentoo");
  await expect(page.getByTestId("candidate-score")).toHaveText(/\d\.\d{4}/);
  await expect(page.getByRole("region", { name: "Leaderboard table" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Resources per step" })).toContainText("Total");
  await expectNoSeriousAxeViolations(page);
  if (testInfo.project.name === "phone") await expectNoHorizontalOverflow(page);

  // Try a prediction: the form is typed by the feature schema (island is a category select).
  await expect(page.getByLabel("island")).toHaveJSProperty("tagName", "SELECT");
  await page.getByRole("button", { name: "Predict", exact: true }).click();
  const tried = page.getByTestId("try-result");
  await expect(tried).toContainText(/Prediction: (Adelie|Chinstrap|Gentoo)/, { timeout: 3 * 60_000 });
  await expect(tried.getByRole("list", { name: "Class probabilities" })).toContainText("%");

  // Predict a file: five rows without the label come back with predictions and probabilities.
  const lines = readFileSync(PENGUINS, "utf8").trim().split("\n");
  const noLabel = (l: string) => l.split(",").slice(1).join(",");
  const rowsFile = testInfo.outputPath("new-penguins.csv");
  writeFileSync(rowsFile, [noLabel(lines[0]!), ...lines.slice(1, 6).map(noLabel)].join("\n") + "\n");
  await page.getByLabel(/CSV file of new rows/).setInputFiles(rowsFile);
  const downloadLink = page.getByRole("link", { name: /Download new-penguins-predictions.csv/ });
  await expect(downloadLink).toBeVisible({ timeout: 3 * 60_000 });
  const [predDownload] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
  const predicted = readFileSync(await predDownload.path(), "utf8").trim().split("\n");
  expect(predicted).toHaveLength(6);
  expect(predicted[0]).toContain("prediction");
  expect(predicted[0]).toContain("proba::Adelie");

  // A file whose columns do not match the schema is refused with the columns named.
  const badFile = testInfo.outputPath("wrong-columns.csv");
  writeFileSync(badFile, "colour,weight\nred,3\n");
  await page.getByLabel(/CSV file of new rows/).setInputFiles(badFile);
  await expect(page.getByRole("alert").filter({ hasText: /island|bill_length_mm/ })).toBeVisible({ timeout: 3 * 60_000 });

  // Export: the downloaded archive's SHA-256 equals the checksum shown and sent.
  const checksum = (await page.getByTestId("export-checksum").textContent())!.trim();
  expect(checksum).toMatch(/^[0-9a-f]{64}$/);
  const [exportDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /Download the model/ }).click()]);
  const bytes = readFileSync(await exportDownload.path());
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(checksum);
  const head = await page.request.get(`/api/experiments/${experimentId}/export`);
  expect(head.headers()["x-checksum-sha256"]).toBe(checksum);
  // One name: the link, the saved file and the commands shown all say the same file.
  const saved = exportDownload.suggestedFilename();
  expect(saved).toMatch(/\.tar\.gz$/);
  await expect(page.getByRole("link", { name: /Download the model/ })).toContainText(saved);
  await expect(page.getByTestId("export-commands")).toContainText(`sha256sum ${saved}`);

  // The double click made exactly one experiment.
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Experiments" }).click();
  await expect(page.getByTestId("experiment-row")).toHaveCount(1);
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Models" }).click();
  // The registry holds only what was registered (e2e/registry.spec.ts); it says how to start.
  await expect(page.getByText("No models yet")).toBeVisible();

  // Run again, then cancel that run (each asks once more first).
  await page.goto(experimentUrl);
  await page.getByRole("button", { name: "Run again" }).click();
  await page.getByRole("button", { name: "Yes, run again" }).click();
  await page.waitForURL((u) => /\/ml\/experiments\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith(experimentId));
  await page.getByRole("button", { name: "Cancel training" }).click();
  await page.getByRole("button", { name: "Yes, cancel training" }).click();
  await expect(page.getByTestId("experiment-status")).toContainText("Cancelled", { timeout: 3 * 60_000 });
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Experiments" }).click();
  await expect(page.getByTestId("experiment-row")).toHaveCount(2);
  await page.getByLabel("Show").selectOption("failed");
  await expect(page.getByTestId("experiment-row")).toHaveCount(1);
  await expect(page.getByTestId("experiment-row")).toContainText("Cancelled");
});

test("the wizard draft survives switching projects", async ({ page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  const a = `Draft A ${testInfo.project.name} ${Date.now()}`;
  const b = `Draft B ${testInfo.project.name} ${Date.now()}`;
  await createProject(page, b);
  await createProject(page, a);
  const aUrl = page.url();
  await page.goto(`${aUrl}/train`);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Upload a file").setInputFiles(PENGUINS);
  await expect(page.getByText("penguins.csv uploaded")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("Choices saved for this project.")).toBeVisible();

  await page.goto("/");
  await page.getByTestId("project-row").filter({ hasText: b }).getByRole("link", { name: b }).click();
  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await expect(stepHeading(page, 1)).toBeVisible();

  await page.goto(`${aUrl}/train`);
  await expect(stepHeading(page, 2)).toBeVisible();
  await expect(page.getByRole("region", { name: "First rows of the data" })).toContainText("Torgersen", { timeout: 60_000 });
});

test("starting a run discards the wizard draft, even when its saves reach the server late", async ({ page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  await createProject(page, `Draft gone ${testInfo.project.name} ${Date.now()}`);
  const projectId = new URL(page.url()).pathname.split("/")[2]!;
  // A slow network, as when this failed in CI: the wizard's saves are held until the run has
  // started (and its draft was discarded, if the discard does not wait for them), so the
  // first save, which creates the draft, lands after Start. The draft must still be gone.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let savesInFlight = 0;
  page.on("request", (r) => void (/\/api\/trpc\/drafts\.save/.test(r.url()) && savesInFlight++));
  const settled = (r: Request) => void (/\/api\/trpc\/drafts\.save/.test(r.url()) && savesInFlight--);
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  await page.route("**/api/trpc/drafts.save**", async (route) => {
    await released;
    await route.continue();
  });

  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Upload a file").setInputFiles(PENGUINS);
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled({ timeout: 5 * 60_000 });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Column to predict (target)").selectOption("species");
  await expect(page.getByText(/Suggested task: /)).toBeVisible({ timeout: 5 * 60_000 });
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 6)).toBeVisible();
  expect(savesInFlight).toBeGreaterThan(0); // held: the draft does not exist yet

  const started = page.waitForResponse(/\/api\/trpc\/experiments\.start/);
  const discarded = page.waitForResponse(/\/api\/trpc\/drafts\.discard/);
  await page.getByRole("button", { name: "Start training" }).click();
  const experimentId = ((await (await started).json()) as { result: { data: { json: { id: string } } } }[])[0]!.result.data.json.id;
  // The saves go on once the discard has answered, or after 2 s if it waits for them.
  await Promise.race([discarded, new Promise((resolve) => setTimeout(resolve, 2000))]);
  release();
  await discarded;
  await expect.poll(() => savesInFlight).toBe(0);
  await trpcMutation(page.request, "experiments.cancel", { id: experimentId }); // its training is not what is checked
  expect((await trpcQuery<{ revision: number }>(page.request, "drafts.get", { projectId })).revision).toBe(0);
  await page.goto(`/projects/${projectId}/ml/train`);
  await expect(stepHeading(page, 1)).toBeVisible();
});
