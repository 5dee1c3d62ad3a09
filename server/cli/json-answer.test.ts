import { describe, expect, it } from "vitest";
import { CliError } from "./cli-error";
import { jsonAnswer } from "./json-answer";

describe("jsonAnswer", () => {
  it("reads JSON, words a refusal that is not JSON, and refuses a success that is not JSON", async () => {
    expect(await jsonAnswer(new Response(JSON.stringify({ error: "no" }), { status: 400 }))).toEqual({ error: "no" });
    expect(await jsonAnswer(new Response("<html>Bad gateway</html>", { status: 502 }))).toEqual({ error: "HTTP 502: <html>Bad gateway</html>" });
    expect(await jsonAnswer(new Response("", { status: 500 }))).toEqual({ error: "HTTP 500" });
    await expect(jsonAnswer(new Response("ok", { status: 200 }))).rejects.toThrow(CliError);
    await expect(jsonAnswer(new Response("ok", { status: 200 }))).rejects.toThrow(/not JSON \(HTTP 200: ok\)/);
  });
});
