import { describe, expect, it } from "vitest";
import { browserLabel } from "./browser-label";

describe("browserLabel", () => {
  it("names common browsers and systems", () => {
    expect(browserLabel("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe("Firefox on Linux");
    expect(browserLabel("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0")).toBe("Edge on Windows");
    expect(browserLabel("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1")).toBe("Safari on iOS");
    expect(browserLabel("curl/8.5.0")).toBe("curl");
    expect(browserLabel(null)).toBe("Unknown browser");
  });
});
