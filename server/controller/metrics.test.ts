import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { parsePrometheusText } from "@/server/testing/prom-text";
import { openTestDb, seedJob } from "@/server/testing/test-db";
import { escapeLabel, renderMetrics } from "./metrics";

describe("metrics exposition", () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openTestDb()));
  afterAll(async () => close());

  it("escapes label values so any computer name stays valid", () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });

  it("counts jobs by state and computer and reports reachability", async () => {
    await seedJob(db, "running", 'Box "A"\nsecond line');
    await seedJob(db, "running", 'Box "A"\nsecond line');
    await seedJob(db, "failed", "This computer");
    await db.target.update({ where: { name: "This computer" }, data: { unreachableSince: new Date(Date.now() - 10_000) } });
    const samples = parsePrometheusText(await renderMetrics(db));
    const jobs = (target: string, state: string) =>
      samples.find((s) => s.name === "trainyard_jobs" && s.labels.target === target && s.labels.state === state)?.value;
    expect(jobs('Box "A"\nsecond line', "running")).toBe(2);
    expect(jobs("This computer", "failed")).toBe(1);
    expect(jobs("This computer", "running")).toBe(0);
    const reach = (target: string) => samples.find((s) => s.name === "trainyard_worker_reachable" && s.labels.target === target)?.value;
    expect(reach("This computer")).toBe(0);
    expect(reach('Box "A"\nsecond line')).toBe(1);
  });

  it("the test parser itself rejects malformed text", () => {
    expect(() => parsePrometheusText("x 1")).toThrow(/newline/);
    expect(() => parsePrometheusText("x 1\n")).toThrow(/before its TYPE/);
    expect(() => parsePrometheusText('# TYPE x gauge\nx{a="\\q"} 1\n')).toThrow(/escape/);
    expect(() => parsePrometheusText("# TYPE x gauge\nx one\n")).toThrow(/bad value/);
  });
});
