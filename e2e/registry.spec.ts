/**
 * The model registry in the browser, on desktop and phone: two real quick trainings on
 * penguins registered as versions 1 and 2 of one model from their experiment pages (the
 * same experiment again is the same version; a taken name is refused with the reason);
 * promote the better one (no comparison needed), promote the other behind the gate's
 * acknowledgement, a stale sheet gets the CONFLICT and the refreshed comparison instead of
 * overwriting, roll back, the timeline, compare, and the Overview's "Which model is in use?";
 * then, at a phone's size, the project list's row shows the version in use and the last
 * run, and rolls back in two taps.
 * axe on each page and with the sheet open; nothing scrolls sideways at 390 px.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectLaidOutAtScreenWidth, expectNoHorizontalOverflow, trainWithRecommendedChoices } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const TRAINING_TIMEOUT = 10 * 60_000;
const MODEL = "Species classifier";
// A click that cannot land (something covers it) fails in a minute, not at the test timeout.
test.use({ actionTimeout: 60_000 });

async function phoneFits(page: Page) {
  await expectNoHorizontalOverflow(page);
  await expectLaidOutAtScreenWidth(page, 390);
}

async function waitForSuccess(page: Page) {
  await expect(page.getByTestId("experiment-status")).toContainText("Succeeded", { timeout: TRAINING_TIMEOUT });
}

/** The score cell of a version row ("accuracy 0.9710") as a number. */
async function scoreOf(page: Page, version: number): Promise<number> {
  const text = await page.locator(`[data-testid="version-row"][data-version="${version}"] td`).first().textContent();
  return Number(text!.trim().split(" ").pop());
}

test("register two trainings as versions, promote behind the gate, a stale sheet gets the refreshed comparison, roll back, see the timeline", async ({ page }, testInfo) => {
  test.setTimeout(25 * 60_000);
  const phone = testInfo.project.name === "phone";
  const projectName = `Registry ${testInfo.project.name} ${Date.now()}`;
  await createProject(page, projectName);
  const projectId = new URL(page.url()).pathname.split("/")[2]!;

  // First training → version 1 of a new model; registering it again is the same version.
  await trainWithRecommendedChoices(page, PENGUINS, "species", 2);
  await waitForSuccess(page);
  const register = page.getByRole("region", { name: "Register as a model version" });
  await expect(register.getByRole("combobox", { name: "Model", exact: true })).toHaveValue("__new__");
  await register.getByLabel("New model name").fill(MODEL);
  await register.getByRole("button", { name: "Register this experiment" }).click();
  await expect(register.getByTestId("register-result")).toContainText(`Registered as version 1 of “${MODEL}”`);
  await expectNoSeriousAxeViolations(page);
  if (phone) await phoneFits(page);
  await register.getByRole("combobox", { name: "Model", exact: true }).selectOption({ label: `${MODEL} (1 version)` });
  await register.getByRole("button", { name: "Register this experiment" }).click();
  await expect(register.getByTestId("register-result")).toContainText(`Already registered as version 1 of “${MODEL}”`);

  // Second training (Run again) → version 2; a taken name is refused first, with the reason.
  const first = page.url();
  await page.getByRole("button", { name: "Run again" }).click();
  await page.getByRole("button", { name: "Yes, run again" }).click();
  await page.waitForURL((u) => /\/ml\/experiments\/[^/]+$/.test(u.pathname) && u.href !== first);
  await waitForSuccess(page);
  await expect(register.getByRole("combobox", { name: "Model", exact: true }).locator("option")).toHaveCount(2);
  await register.getByRole("combobox", { name: "Model", exact: true }).selectOption("__new__");
  await register.getByLabel("New model name").fill("  species CLASSIFIER ");
  await register.getByRole("button", { name: "Register this experiment" }).click();
  await expect(register.getByRole("alert")).toContainText(/^Not registered: .*(taken|already)/i);
  await register.getByRole("combobox", { name: "Model", exact: true }).selectOption({ label: `${MODEL} (1 version)` });
  await register.getByRole("button", { name: "Register this experiment" }).click();
  await expect(register.getByTestId("register-result")).toContainText(`Registered as version 2 of “${MODEL}”`);

  // The Models view: nothing in use yet; both versions in the decision table.
  await register.getByRole("link", { name: "Open Models" }).click();
  await page.waitForURL(/\/ml\/models$/);
  const card = page.getByRole("region", { name: MODEL });
  await expect(card.getByTestId("model-selected")).toHaveText("No version is in use yet: promote one.");
  await expect(card.getByTestId("version-row")).toHaveCount(2);
  // Each version shows what it can prove it never learnt from: all 344 penguins rows went to its split.
  await expect(card.getByTestId("version-exclusion")).toHaveText(Array(2).fill("Holdout evidence: the hashes of the 344 rows it was trained, tuned and tested on."));
  const [s1, s2] = [await scoreOf(page, 1), await scoreOf(page, 2)];
  const [hi, lo] = s1 >= s2 ? [1, 2] : [2, 1];
  if (phone) {
    const table = card.getByRole("region", { name: `Versions of ${MODEL}` });
    expect(await table.evaluate((el) => getComputedStyle(el).overflowX)).toBe("auto");
    await phoneFits(page);
  }
  await expectNoSeriousAxeViolations(page);
  // Every tab and every version's action is on the screen, at 1280 px and at a phone's 390 px,
  // once its row is scrolled to vertically: none is cut off at the edge or behind a sideways swipe.
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const tab of ["Overview", "Data", "Experiments", "Searches", "Models", "Deployments", "Schedules"]) {
      await expect(page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: tab, exact: true })).toBeInViewport({ ratio: 1 });
    }
    for (const v of [1, 2]) {
      const actions = card.locator(`[data-testid="version-actions"][data-version="${v}"]`);
      await actions.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
      for (const name of ["Download", "Deploy", "Promote", "Remove"]) {
        await expect(actions.getByRole(name === "Download" ? "link" : "button", { name: `${name} version ${v}` })).toBeInViewport({ ratio: 1 });
      }
    }
    if (size.width === 390) await phoneFits(page);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));

  // Promote the better one: the first selection needs no comparison and no reason, so one
  // tap confirms (the reason left empty is recorded as "promoted").
  await card.getByRole("button", { name: `Promote version ${hi}` }).click();
  let sheet = page.getByRole("dialog", { name: `Promote version ${hi}?` });
  await expect(sheet.getByTestId("promote-decision")).toHaveAttribute("data-verdict", "first");
  await expect(sheet.getByTestId("promote-change")).toContainText("nothing selected yet");
  await expect(sheet.getByLabel(/^Reason \(optional/)).toHaveAttribute("placeholder", "“promoted” when left empty");
  const go = sheet.getByRole("button", { name: `Promote version ${hi}` });
  await expect(go).toBeEnabled();
  await go.click();
  await expect(sheet).toHaveCount(0);
  await expect(card.getByTestId("model-selected")).toContainText(`In use: version ${hi}`);

  // The other one needs the acknowledgement; while the sheet is open someone else promotes
  // it: the click gets CONFLICT and the sheet shows the comparison as it stands now.
  await card.getByRole("button", { name: `Promote version ${lo}` }).click();
  sheet = page.getByRole("dialog", { name: `Promote version ${lo}?` });
  await expect(sheet.getByTestId("promote-decision")).toHaveAttribute("data-verdict", "needs_acknowledgement");
  await expect(sheet.getByTestId("promote-change")).toContainText(`In use nowversion ${hi}`);
  const ack = sheet.getByLabel(/^I accept (a regression|no useful gain) on \w+: \d\.\d{4} → \d\.\d{4}$/);
  await expect(ack).toBeVisible();
  await sheet.getByLabel(/^Reason/).fill("smaller model");
  await expect(sheet.getByRole("button", { name: `Promote version ${lo}` })).toBeDisabled();
  await ack.check();
  await expectNoSeriousAxeViolations(page);
  if (phone) await phoneFits(page);
  const list = await page.request.get(`/api/trpc/models.list?input=${encodeURIComponent(JSON.stringify({ json: { projectId } }))}`);
  const modelId = ((await list.json()) as { result: { data: { json: { id: string }[] } } }).result.data.json[0]!.id;
  const elsewhere = await page.request.post("/api/trpc/models.promote", {
    data: { json: { modelId, version: lo, reason: "from another tab", acceptRegression: true, expectedRevision: 2 } },
  });
  expect(elsewhere.status()).toBe(200);
  await sheet.getByRole("button", { name: `Promote version ${lo}` }).click();
  await expect(sheet.getByTestId("promote-conflict")).toContainText("someone moved it since you looked");
  await expect(sheet.getByTestId("promote-decision")).toHaveAttribute("data-verdict", "already_selected");
  await sheet.getByRole("button", { name: "Close" }).click();
  await expect(card.getByTestId("model-selected")).toContainText(`In use: version ${lo}`);

  // Roll back, one tap away, behind the sheet.
  await card.getByRole("button", { name: `Roll back to version ${hi}` }).first().click();
  sheet = page.getByRole("dialog", { name: `Roll back to version ${hi}?` });
  await expect(sheet.getByTestId("rollback-change")).toContainText(`In use nowversion ${lo}`);
  await sheet.getByLabel(/^Reason/).fill("the new one misbehaves");
  await sheet.getByRole("button", { name: `Roll back to version ${hi}` }).click();
  await expect(sheet).toHaveCount(0);
  await expect(card.getByTestId("model-selected")).toContainText(`In use: version ${hi}`);

  // The timeline: every move, newest first, with from, to, who, why and the evidence.
  const events = card.getByTestId("timeline-event");
  await expect(events).toHaveCount(3);
  expect(await events.evaluateAll((els) => els.map((e) => e.getAttribute("data-kind")))).toEqual(["rollback", "promote", "promote"]);
  await expect(events.nth(0)).toContainText(`Rolled back to version ${hi} (from version ${lo})`);
  await expect(events.nth(0)).toContainText("Reason: the new one misbehaves");
  await expect(events.nth(1)).toContainText(`Version ${lo} selected, replacing version ${hi}`);
  await expect(events.nth(1)).toContainText("Promoted with an acknowledgement");
  await expect(events.nth(2)).toContainText(`Version ${hi} selected (the first)`);
  await expect(events.nth(2)).not.toContainText("revision");
  await expect(events.nth(2)).toContainText("Reason: promoted");
  await expect(events.nth(2)).toContainText("Evidence: Nothing is selected yet");

  // Compare side by side: the two trainings share data and evaluation, so they are comparable.
  await card.getByText("Compare two versions").click();
  await expect(card.getByTestId("compare-verdict")).toContainText(/^Both scored \w+ on the same split, snapshot and evaluator\./);
  await expect(card.getByRole("region", { name: "Data: version 1 and version 2" })).toContainText("snapshotSha256");
  await expectNoSeriousAxeViolations(page);
  if (phone) await phoneFits(page);
  await page.screenshot({ path: testInfo.outputPath(`models-${testInfo.project.name}.png`), fullPage: true });

  // Compare on a reserved holdout: penguins no version learnt from (each a gram heavier),
  // scored by the trusted evaluator, the difference with its interval in a chart and words.
  const [header, ...rows] = readFileSync(PENGUINS, "utf8").trim().split("\n");
  const heavier = rows.filter((_, i) => i % 5 === 0).map((r) => r.split(",").map((v, i) => (i === 5 && /^\d+$/.test(v) ? String(Number(v) + 1) : v)).join(","));
  const reserved = await page.request.post(`/api/holdouts/upload?projectId=${projectId}&fileName=heavier.csv&name=heavier`, { data: Buffer.from([header, ...heavier].join("\n") + "\n") });
  expect(reserved.status(), await reserved.text()).toBe(201);
  await card.locator("summary", { hasText: "Compare on the holdout" }).click();
  await card.getByRole("button", { name: "Compare on the holdout" }).click();
  await expect(card.getByTestId("holdout-verdict")).toContainText(/version/, { timeout: 5 * 60_000 });
  await expect(card.getByTestId("holdout-result")).toContainText(`of “heavier” that no version learnt from`);
  await expectNoSeriousAxeViolations(page);
  if (phone) await phoneFits(page);

  // The Overview answers "Which model is in use?" with the selected version and its evidence.
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Overview" }).click();
  const inUse = page.getByTestId("overview-in-use");
  await expect(inUse).toContainText(`${MODEL}: version ${hi}`);
  await expect(inUse).toContainText("Rolled back by");
  await expect(inUse).toContainText("“the new one misbehaves”");
  await expectNoSeriousAxeViolations(page);
  if (phone) await phoneFits(page);

  // On a phone, from the first screen: each model's version in use and the last run's status
  // on the project's row, and a rollback in two taps (Roll back, then confirm), both in view.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const row = page.getByTestId("project-row").filter({ hasText: projectName });
  // Other specs' projects share this server and sort before it: scrolling is not a tap.
  await row.scrollIntoViewIfNeeded();
  await expect(row.getByTestId("project-models")).toContainText(`${MODEL}: version ${hi} in use`);
  await expect(row.getByTestId("project-last-run")).toContainText("Succeeded");
  const tap1 = row.getByRole("button", { name: `Roll back ${MODEL} to version ${lo}` });
  await expect(tap1).toBeInViewport();
  await tap1.click();
  const confirm = page.getByRole("dialog", { name: `Roll back to version ${lo}?` });
  const tap2 = confirm.getByRole("button", { name: `Roll back to version ${lo}` });
  await expect(tap2).toBeInViewport();
  await expectNoSeriousAxeViolations(page);
  await tap2.click();
  await expect(confirm).toHaveCount(0);
  await expect(row.getByTestId("project-models")).toContainText(`${MODEL}: version ${lo} in use`);
  await expect(row.getByRole("button", { name: `Roll back ${MODEL} to version ${hi}` })).toBeVisible();
  await phoneFits(page);
});
