/**
 * A schedule made in the browser, on desktop and phone: with a copy of penguins.csv in a
 * folder allowed in Settings → Data, the project's Schedules view first refuses a file
 * outside the allowed folders next to the form, then makes "every 6 hours, predict
 * species, 3 minutes a run", shown active with its next tick. Run now admits a run that
 * is decided "started" (a real Quick baseline starts; its end is not awaited); a second
 * Run now meanwhile is refused with the reason. Pause and Resume move the card, Edit
 * renames it and sets a cap; Remove asks first and says the experiments stay. On a phone
 * Pause and Run now each ask in a dialog first. axe on the form and on the card.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { allowFolder, createProject, expectLaidOutAtScreenWidth, expectNoHorizontalOverflow, trpcMutation } from "./steps";

const PENGUINS = path.join(import.meta.dirname, "..", "tests", "fixtures", "tabular", "penguins.csv");

test("create a schedule, run it now until its run starts, pause and resume it", async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const phone = testInfo.project.name === "phone";
  const fits = async () => {
    if (!phone) return;
    await expectNoHorizontalOverflow(page);
    await expectLaidOutAtScreenWidth(page, 390);
  };
  /** On a phone Pause and Run now ask once more in a dialog; on a desktop they act at once. */
  const confirmOnPhone = async (title: RegExp, yes: string) => {
    if (!phone) return;
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: yes }).click();
    await expect(dialog).toBeHidden();
  };

  const folder = mkdtempSync(path.join(os.tmpdir(), "trainyard-e2e-schedule-"));
  const file = path.join(folder, "penguins.csv");
  copyFileSync(PENGUINS, file);
  await allowFolder(page, folder);

  await createProject(page, `Schedules ${testInfo.project.name} ${Date.now()}`);
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Schedules" }).click();
  await expect(page.getByRole("heading", { name: "Schedules", level: 2 })).toBeVisible();
  await expect(page.getByText("No schedules yet")).toBeVisible();
  await page.getByRole("button", { name: "New schedule" }).click();

  const form = page.getByRole("form", { name: "New schedule" });
  await expect(form.getByLabel("Every", { exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await fits();
  // A file outside the allowed folders: the computer refuses it, and the form says what to do.
  await form.getByLabel("File path on the computer").fill(path.join(os.tmpdir(), "elsewhere.csv"));
  await form.getByLabel("Column to predict (target)").fill("species");
  await form.getByRole("button", { name: "Create schedule" }).click();
  await expect(form.getByRole("alert")).toContainText(/allowed folders/);

  await form.getByLabel("File path on the computer").fill(file);
  await expect(form.getByLabel("Every", { exact: true })).toHaveValue("6");
  await expect(form.getByLabel("Unit")).toHaveValue("hours");
  await form.getByLabel("Max minutes per run").fill("3");
  await form.getByLabel("Stable for (seconds)").fill("1");
  await form.getByRole("button", { name: "Create schedule" }).click();
  await expect(form).toBeHidden();

  const card = page.getByTestId("schedule-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("heading", { name: "species from penguins.csv" })).toBeVisible();
  await expect(card.getByTestId("schedule-state")).toHaveText("active");
  await expect(card).toContainText("every 6 hours");
  await expect(card.getByTestId("schedule-next-tick")).toContainText(/Next tick: .+\(in 6 h\)/);
  await expect(card).toContainText(`${file} on This computer`);
  await expect(card).toContainText("Quick baseline predicting species, up to 3 min a run");
  await expect(card).toContainText("No runs yet.");

  await card.getByRole("button", { name: "Run now" }).click();
  await confirmOnPhone(/^Run .+ now\?$/, "Run now");
  await expect(card.getByTestId("run-now-answer")).toContainText(/Run 1: (admitting…|started)/);
  const run = card.getByTestId("schedule-run");
  await expect(run).toHaveCount(1);
  // Admission: two looks a second apart, the snapshot, its profile and the data checks, then the experiment starts.
  await expect(run.getByTestId("run-outcome")).toHaveText("started", { timeout: 150_000 });
  await expect(card.getByTestId("run-now-answer")).toContainText("Run 1: started");
  const experiment = run.getByRole("link", { name: "Experiment of run 1" });
  await expect(experiment).toHaveAttribute("href", /\/ml\/experiments\/[^/]+$/);
  await expect(card).toContainText("1 started (no cap)");
  // While run 1 trains, Run now is refused with the reason: the schedule runs once at a time.
  await card.getByRole("button", { name: "Run now" }).click();
  await confirmOnPhone(/^Run .+ now\?$/, "Run now");
  await expect(card.getByTestId("run-now-answer")).toContainText("Run now was refused: Run 1 is still training");

  await card.getByRole("button", { name: "Pause" }).click();
  await confirmOnPhone(/^Pause .+\?$/, "Pause it");
  await expect(card.getByTestId("schedule-state")).toHaveText(/^paused/);
  await expect(card.getByTestId("schedule-next-tick")).toHaveText("No next tick while paused.");

  await card.getByRole("button", { name: "Resume" }).click();
  await expect(card.getByTestId("schedule-state")).toHaveText("active");
  await expect(card.getByTestId("schedule-next-tick")).toContainText(/\(in 6 h\)/);

  // Edit sends the revision the card shows; the card shows what was saved.
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = card.getByRole("form", { name: /^Edit / });
  await edit.getByLabel("Name", { exact: true }).fill("Penguins every 6 hours");
  await edit.getByLabel("Max runs (lifetime)").fill("5");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(card.getByRole("heading", { name: "Penguins every 6 hours" })).toBeVisible();
  await expect(card).toContainText("1 of 5 started");

  // Remove always asks, and says what stays.
  await card.getByRole("button", { name: "Remove…" }).click();
  const remove = page.getByRole("dialog", { name: /^Remove .+\?$/ });
  await expect(remove).toContainText("experiments and searches it started stay");
  await expectNoSeriousAxeViolations(page);
  await remove.getByRole("button", { name: "Not now" }).click();
  await expect(remove).toBeHidden();
  await expectNoSeriousAxeViolations(page);
  await fits();

  // The run's training is not what this checks: stop it so the next project's admission has the CPUs.
  const experimentId = (await experiment.getAttribute("href"))!.split("/").pop();
  await trpcMutation(page.request, "experiments.cancel", { id: experimentId });
});
