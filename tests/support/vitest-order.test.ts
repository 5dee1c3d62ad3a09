/**
 * The integration files start slowest first (vitest.config.ts). Vitest 4 calls a sequencer
 * only from the root config: one set inside a project was silently ignored for months, and a
 * clean clone started the 5-minute SmolLM2 file last. This pins both halves: the sequencer is
 * at the root, no project sets its own, and it orders the measured files first, slowest first.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import config from "@/vitest.config";
import seconds from "./integration-seconds.json";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("the integration files' order", () => {
  const test = config.test!;
  it("is set by a sequencer in the root config, and by none inside a project", () => {
    expect(test.sequence?.sequencer).toBeTypeOf("function");
    for (const project of test.projects as { test: { name: string; sequence?: unknown } }[]) expect(project.test.sequence, project.test.name).toBeUndefined();
  });

  it("puts the measured files first, slowest first, then the rest in Vitest's own order", async () => {
    const Sequencer = test.sequence!.sequencer!;
    const sequencer = new Sequencer({ config: { root: REPO, sequence: {} }, cache: { getFileTestResults: () => undefined, getFileStats: () => undefined } } as never);
    // What the sequencer reads of a file: its path and its project's name.
    const spec = (rel: string) => ({ moduleId: path.join(REPO, rel), project: { name: "integration", config: { sequence: {} } } }) as Pick<TestSpecification, "moduleId"> as TestSpecification;
    const measured = Object.keys(seconds);
    const files = [spec("server/db/migrations.integration.test.ts"), ...measured.slice(0, 3).reverse().map(spec)];
    const sorted = await sequencer.sort(files);
    expect(sorted.map((f) => path.relative(REPO, f.moduleId))).toEqual([...measured.slice(0, 3), "server/db/migrations.integration.test.ts"]);
  });
});
