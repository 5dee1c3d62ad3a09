/**
 * Wizard drafts: one per project, saved as the user moves through the wizard so that
 * leaving and coming back restores the choices. Optimistic concurrency by revision: a
 * save names the revision it read; a stale one is a CONFLICT carrying the current one.
 */
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound } from "@/server/errors";
import { draftsRepository, type DraftRow } from "./drafts.repository";
import { MAX_DRAFT_BYTES, ZDraftSaveInput, ZWizardDraftData, type DraftView, type TDraftSaveInput } from "./drafts.schema";

function toView(projectId: string, row: DraftRow | null): DraftView {
  if (!row) return { projectId, revision: 0, data: ZWizardDraftData.parse({}), updatedAt: null };
  let data;
  try {
    data = ZWizardDraftData.parse(JSON.parse(row.data));
  } catch {
    // A draft written by an older version that no longer parses starts over rather than breaking the wizard.
    data = ZWizardDraftData.parse({});
  }
  return { projectId, revision: row.revision, data, updatedAt: row.updatedAt.toISOString() };
}

export function draftsService(db: Db = getDb()) {
  const repo = draftsRepository(db);

  async function requireProject(projectId: string) {
    const p = await db.project.findUnique({ where: { id: projectId } });
    if (!p) throw notFound(`There is no project with id ${projectId}.`);
  }

  return {
    async get(projectId: string): Promise<DraftView> {
      await requireProject(projectId);
      return toView(projectId, await repo.find(projectId));
    },

    async save(raw: TDraftSaveInput): Promise<DraftView> {
      const input = ZDraftSaveInput.parse(raw);
      await requireProject(input.projectId);
      const json = JSON.stringify(input.data);
      if (Buffer.byteLength(json) > MAX_DRAFT_BYTES) throw badInput(`The wizard draft is larger than ${MAX_DRAFT_BYTES / 1024} KiB; it holds choices only.`);
      const stale = async () => {
        const current = toView(input.projectId, await repo.find(input.projectId));
        return conflict(
          `The wizard draft of this project was changed elsewhere (revision ${current.revision}, you had ${input.revision}). Reload to continue from the newer one.`,
          { current },
        );
      };
      if (input.revision === 0) {
        try {
          await repo.create(input.projectId, json);
        } catch {
          throw await stale();
        }
      } else if ((await repo.updateAtRevision(input.projectId, input.revision, json)) === 0) {
        throw await stale();
      }
      return toView(input.projectId, await repo.find(input.projectId));
    },

    async discard(projectId: string): Promise<{ discarded: true }> {
      await repo.remove(projectId);
      return { discarded: true };
    },
  };
}
