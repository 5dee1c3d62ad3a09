/**
 * Projects: the home of everything. Names are unique regardless of case; edits name
 * the revision they read, and a stale revision is a CONFLICT.
 */
import { badInput, conflict, notFound } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { getDb, type Db } from "@/server/db/client";
import { projectsRepository } from "./projects.repository";
import type { ProjectView } from "./projects.schema";

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === "P2002" || /Unique constraint/i.test(e?.message ?? "");
}

export function projectsService(db?: Db) {
  const repo = projectsRepository(db);

  async function requireProject(id: string): Promise<ProjectView> {
    const p = await repo.find(id);
    if (!p) throw notFound(`There is no project with id ${id}. It may have been deleted.`);
    return p;
  }

  async function updateChecked(
    id: string,
    revision: number,
    data: { name?: string; archivedAt?: Date | null },
  ): Promise<ProjectView> {
    const current = await requireProject(id);
    let count: number;
    try {
      count = await repo.updateAtRevision(id, revision, data);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A project named "${data.name}" already exists.`);
      throw err;
    }
    if (count === 0) {
      throw conflict(
        `"${current.name}" was changed elsewhere since you opened it (revision ${current.revision}, you had ${revision}). Reload and try again.`,
        { currentRevision: current.revision },
      );
    }
    const updated = await requireProject(id);
    publish({ type: "project.changed", projectId: id });
    return updated;
  }

  return {
    list: (includeArchived = false) => repo.list(includeArchived),
    get: requireProject,
    findByName: (name: string) => repo.findByName(name),

    async create(name: string): Promise<ProjectView> {
      if (await repo.findByName(name)) throw conflict(`A project named "${name}" already exists.`);
      try {
        const p = await repo.create(name);
        publish({ type: "project.changed", projectId: p.id });
        return p;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`A project named "${name}" already exists.`);
        throw err;
      }
    },

    async rename(id: string, name: string, revision: number): Promise<ProjectView> {
      const existing = await repo.findByName(name);
      if (existing && existing.id !== id) throw conflict(`A project named "${name}" already exists.`);
      return updateChecked(id, revision, { name });
    },

    archive: (id: string, revision: number) => updateChecked(id, revision, { archivedAt: new Date() }),
    restore: (id: string, revision: number) => updateChecked(id, revision, { archivedAt: null }),

    /** Saves the computer new work in this project starts on (null: This computer). */
    async setDefaultComputer(id: string, targetId: string | null): Promise<ProjectView> {
      await requireProject(id);
      if (targetId) {
        const t = await (db ?? getDb()).target.findUnique({ where: { id: targetId }, select: { name: true, deletedAt: true, enabled: true } });
        if (!t || t.deletedAt) throw notFound(`There is no training computer with id ${targetId}.`);
        if (!t.enabled) throw badInput(`${t.name} is disabled; enable it before making it the default.`);
      }
      const p = await repo.setDefaultTarget(id, targetId);
      publish({ type: "project.changed", projectId: id });
      return p;
    },

    /** Finds a project by name or creates it (used by the CLI's default project). */
    async ensure(name: string): Promise<ProjectView> {
      return (await repo.findByName(name)) ?? this.create(name);
    },
  };
}
