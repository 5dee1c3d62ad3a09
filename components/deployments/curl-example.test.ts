import { describe, expect, it } from "vitest";
import { curlExample } from "./curl-example";

describe("the copyable curl example", () => {
  it("names the real URL, the key (or where it goes) and a row, quoting a single quote for the shell", () => {
    expect(curlExample("http://127.0.0.1:3000", "/api/deployments/d1/predict", null, { island: "Biscoe", note: "it's" })).toBe(
      [
        "curl -s -X POST 'http://127.0.0.1:3000/api/deployments/d1/predict' \\",
        "  -H 'Authorization: Bearer <your deployment key>' \\",
        "  -H 'content-type: application/json' \\",
        `  -d '{"rows":[{"island":"Biscoe","note":"it'\\''s"}]}'`,
      ].join("\n"),
    );
  });
});
