import { describe, expect, it } from "vitest";
import { MAX_SOCKET_PATH_BYTES, servingSocketPath } from "./serving";

const JOB = "j20261202072513-8a4f53a823";
const bytes = (p: string) => Buffer.byteLength(p, "utf8");

describe("servingSocketPath", () => {
  it("is the job's run folder under the worker home when Linux can bind it", () => {
    expect(servingSocketPath("/home/ana/.trainyard/worker/", JOB)).toBe(`/home/ana/.trainyard/worker/run/${JOB}/serve.sock`);
  });

  it("moves a path too deep to bind to a per-job folder under /tmp, the same for both sides and distinct per home", () => {
    // The path CI's nested scratch folders produced: 108 bytes.
    const deep = "/tmp/trainyard-tests-GO4ZaZ/trainyard-remote-OYSEp5/trainyard/home";
    expect(bytes(`${deep}/run/${JOB}/serve.sock`)).toBe(108);
    const moved = servingSocketPath(deep, JOB);
    expect(moved).toMatch(new RegExp(`^/tmp/trainyard-[0-9a-f]{8}-${JOB}/serve\\.sock$`));
    expect(bytes(moved)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(servingSocketPath(deep, JOB)).toBe(moved);
    expect(servingSocketPath(`${deep}2`, JOB)).not.toBe(moved);
    expect(servingSocketPath(deep, "j20261202072513-0000000000")).not.toBe(moved);
  });

  it("counts bytes, not characters", () => {
    const home = `/home/${"é".repeat(35)}`; // 76 bytes, 41 characters
    expect(servingSocketPath(home, JOB).startsWith("/tmp/trainyard-")).toBe(true);
  });
});
