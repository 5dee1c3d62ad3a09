import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { expectNoHorizontalOverflow } from "./steps";

/**
 * The project list is fetched by the browser, so once it (or its empty state) shows, the
 * page is hydrated: typing before that would submit the form natively and be lost.
 */
async function openProjects(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.getByRole("list", { name: "Projects" }).or(page.getByText(/No (active )?projects/))).toBeVisible();
}

test("creating a project opens it", async ({ page }, testInfo) => {
  const name = `Opens ${testInfo.project.name} ${Date.now()}`;
  await openProjects(page);
  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL(/\/projects\/[^/]+\/ml$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Overview", level: 2 })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test("create, rename, archive and restore a project", async ({ page }, testInfo) => {
  const name = `Forecast ${testInfo.project.name} ${Date.now()}`;
  const renamed = `${name} (renamed)`;
  await openProjects(page);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await openProjects(page);
  const row = page.getByTestId("project-row").filter({ hasText: name });
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: `Rename ${name}` }).click();
  await page.getByLabel(`New name for ${name}`).fill(renamed);
  await page.getByRole("button", { name: "Save" }).click();
  const renamedRow = page.getByTestId("project-row").filter({ hasText: renamed });
  await expect(renamedRow).toBeVisible();

  await renamedRow.getByRole("link", { name: renamed }).click();
  await expect(page.getByRole("heading", { name: renamed, level: 1 })).toBeVisible();
  for (const tab of ["Overview", "Experiments", "Models"]) {
    await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: tab }).click();
    await expect(page.getByRole("heading", { name: tab, level: 2 })).toBeVisible();
  }
  await expectNoSeriousAxeViolations(page);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" }).click();
  await page.getByTestId("project-row").filter({ hasText: renamed }).getByRole("button", { name: `Archive ${renamed}` }).click();
  await expect(page.getByTestId("project-row").filter({ hasText: renamed })).toHaveCount(0);

  await page.getByLabel("Show archived projects").check();
  const archivedRow = page.getByTestId("project-row").filter({ hasText: renamed });
  await expect(archivedRow.getByText("Archived")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await archivedRow.getByRole("button", { name: `Restore ${renamed}` }).click();
  await page.getByLabel("Show archived projects").uncheck();
  await expect(page.getByTestId("project-row").filter({ hasText: renamed })).toBeVisible();
});

test("duplicate and empty names get a clear message", async ({ page }, testInfo) => {
  const name = `Duplicate ${testInfo.project.name} ${Date.now()}`;
  await openProjects(page);
  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await openProjects(page);
  await expect(page.getByTestId("project-row").filter({ hasText: name })).toBeVisible();
  await page.getByLabel("New project name").fill(name.toUpperCase());
  await page.getByRole("button", { name: "Create project" }).click();
  // Next.js keeps an empty role=alert route announcer on every page: match by text.
  await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();
  await page.getByLabel("New project name").fill("   ");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "needs a name" })).toBeVisible();
});

test("the navigation fits a phone screen", async ({ page }) => {
  await page.goto("/");
  await expectNoHorizontalOverflow(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
});
