import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "./content-disposition";

describe("attachmentDisposition", () => {
  it("keeps an ASCII name and adds the RFC 5987 form", () => {
    expect(attachmentDisposition("model.tar.gz")).toBe(`attachment; filename="model.tar.gz"; filename*=UTF-8''model.tar.gz`);
  });
  it("encodes a non-Latin-1 name so the header is valid", () => {
    const v = attachmentDisposition("données-預測.csv");
    expect(v).toContain(`filename*=UTF-8''donn%C3%A9es-%E9%A0%90%E6%B8%AC.csv`);
    expect(/^[\x20-\x7e]*$/.test(v)).toBe(true);
    expect(() => new Headers({ "content-disposition": v })).not.toThrow();
  });
  it("cannot be broken out of with quotes or semicolons", () => {
    const v = attachmentDisposition('a";b=c.csv');
    expect(v.startsWith(`attachment; filename="a__b=c.csv";`)).toBe(true);
    expect(v).toContain("a%22%3Bb%3Dc.csv");
  });
});
