import { describe, expect, it } from "vitest";
import { chooseComputer } from "./choose-computer";

const local = { id: "local", thisComputer: true, enabled: true };
const lab = { id: "lab", thisComputer: false, enabled: true };
const off = { id: "off", thisComputer: false, enabled: false };

describe("chooseComputer", () => {
  it("prefers the draft's pick, then the project's default, then This computer", () => {
    expect(chooseComputer([local, lab], "local", "lab")?.id).toBe("local");
    expect(chooseComputer([local, lab], null, "lab")?.id).toBe("lab");
    expect(chooseComputer([lab, local], null, null)?.id).toBe("local");
  });

  it("skips a disabled or deleted computer instead of starting on it", () => {
    expect(chooseComputer([local, off], "off", "off")?.id).toBe("local");
    expect(chooseComputer([local], "gone", null)?.id).toBe("local");
    expect(chooseComputer([off], null, null)).toBeUndefined();
  });
});
