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
  await expect(card.getByText("CPUs")).toBeVisible();
  await expect(card).toContainText(String(os.cpus().length));
  await expect(card.getByRole("button", { name: /Check .* again/ })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousAxeViolations(page);
});
