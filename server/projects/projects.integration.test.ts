import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "@/server/db/client";
import { prepareDatabase, repoMigrationPaths } from "@/server/db/prepare-database";
import { DomainError } from "@/server/errors";
import { projectsService } from "./projects.service";
import { ZCreateProjectInput, ZRenameProjectInput } from "./projects.schema";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("projects on a real SQLite file", () => {
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ty-projects-"));
    const file = path.join(dir, "trainyard.db");
    await prepareDatabase(file, repoMigrationPaths(REPO));
    openDb(file);
  });
  afterAll(() => closeDb());

  const svc = () => projectsService();
  const code = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err instanceof DomainError ? err.code : `unexpected ${String(err)}`;
    }
    return "no error";
  };

  it("creates, renames, archives and restores a project", async () => {
    const p = await svc().create("Churn model");
    expect(p).toMatchObject({ name: "Churn model", revision: 1, archived: false });
    const renamed = await svc().rename(p.id, "Churn model v2", 1);
    expect(renamed).toMatchObject({ name: "Churn model v2", revision: 2 });
    const archived = await svc().archive(p.id, 2);
    expect(archived.archived).toBe(true);
    expect((await svc().list()).map((x) => x.id)).not.toContain(p.id);
    expect((await svc().list(true)).map((x) => x.id)).toContain(p.id);
    const restored = await svc().restore(p.id, archived.revision);
    expect(restored.archived).toBe(false);
    expect((await svc().list()).map((x) => x.id)).toContain(p.id);
  });

  it("refuses a duplicate name regardless of case", async () => {
    await svc().create("Fraud");
    expect(await code(svc().create("fraud"))).toBe("CONFLICT");
    const other = await svc().create("Other");
    expect(await code(svc().rename(other.id, "FRAUD", other.revision))).toBe("CONFLICT");
  });

  it("answers a stale rename with a conflict instead of overwriting", async () => {
    const p = await svc().create("Stale test");
    await svc().rename(p.id, "Renamed by tab A", p.revision);
    expect(await code(svc().rename(p.id, "Renamed by tab B", p.revision))).toBe("CONFLICT");
    expect((await svc().get(p.id)).name).toBe("Renamed by tab A");
  });

  it("reports an unknown project id as not found", async () => {
    expect(await code(svc().get("does-not-exist"))).toBe("NOT_FOUND");
    expect(await code(svc().rename("does-not-exist", "x", 1))).toBe("NOT_FOUND");
  });

  it("validates names at the boundary", () => {
    expect(ZCreateProjectInput.safeParse({ name: "   " }).success).toBe(false);
    expect(ZCreateProjectInput.safeParse({ name: "x".repeat(201) }).success).toBe(false);
    expect(ZCreateProjectInput.parse({ name: "  two   spaces " }).name).toBe("two spaces");
    expect(ZRenameProjectInput.safeParse({ id: "a", name: "ok", revision: 0 }).success).toBe(false);
  });
});
