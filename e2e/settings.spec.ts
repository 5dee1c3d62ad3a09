import os from "node:os";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { expectNoHorizontalOverflow } from "./steps";

test("Settings shows This computer with its probe, readable on the screen size", async ({ page }) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Training computers", level: 2 })).toBeVisible();
  const card = page.getByRole("article").filter({ hasText: "This computer" });
  await expect(card).toBeVisible();
  // The probe is the worker's real answer about this machine.
  const cpus = card.getByRole("term").filter({ hasText: "CPUs" });
  await expect(cpus).toBeVisible();
  // Shown as written ("CPUs"), not upper-cased by CSS into "CPUS".
  expect(await cpus.evaluate((el) => getComputedStyle(el).textTransform)).toBe("none");
  await expect(card).toContainText(String(os.cpus().length));
  await expect(card.getByRole("button", { name: /Check .* again/ })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousAxeViolations(page);
});

test("Settings → Data says next to the folder field why a folder is refused", async ({ page }) => {
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Data" });
  const field = section.getByLabel("Allowed folders (one per line)");
  await field.fill("/etc");
  await section.getByRole("button", { name: "Save data settings" }).click();
  const reason = section.locator("#allowed-roots-error");
  await expect(reason).toContainText("The folder /etc cannot be allowed: it is the system folder /etc");
  // Tied to the field, so a screen reader reads it with the field.
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAttribute("aria-describedby", /allowed-roots-error/);
  await expectNoSeriousAxeViolations(page);
});
