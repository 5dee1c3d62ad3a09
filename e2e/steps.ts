/** Steps several specs share: creating a project, opening the Add server form, the phone layout check. */
import { expect, type Page } from "@playwright/test";

/** Creates a project on the Projects page; creating it opens it. */
export async function createProject(page: Page, name: string) {
  await page.goto("/");
  // The list is fetched in the browser: once it shows, the form is hydrated and typing sticks.
  await expect(page.getByRole("list", { name: "Projects" }).or(page.getByText(/No (active )?projects/))).toBeVisible();
  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL(/\/projects\/[^/]+\/ml$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
}

/** Nothing on the page is wider than the screen (no sideways scrolling on a phone). */
export async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The list is fetched in the browser: once Add server is enabled, the page is hydrated and typing sticks. */
export async function openAddServerForm(page: Page) {
  await page.goto("/settings");
  const add = page.getByRole("button", { name: "Add server" });
  await expect(add).toBeEnabled();
  await expect(page.getByRole("article").first()).toBeVisible();
  await add.click();
  const form = page.getByRole("form", { name: "Add a server" });
  await expect(form).toBeVisible();
  return form;
}
