/** Shared steps of the Settings specs. */
import { expect, type Page } from "@playwright/test";

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

export async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

