import { z } from "zod";

export const PROJECT_NAME_MAX = 100;

export const ZProjectName = z
  .string()
  .transform((s) => s.trim().replace(/\s+/g, " "))
  .pipe(
    z
      .string()
      .min(1, "A project needs a name.")
      .max(PROJECT_NAME_MAX, `A project name can have at most ${PROJECT_NAME_MAX} characters.`),
  );

export const ZCreateProjectInput = z.strictObject({ name: ZProjectName });
export type TCreateProjectInput = z.infer<typeof ZCreateProjectInput>;

export const ZProjectIdInput = z.strictObject({ id: z.string().min(1).max(64) });

export const ZRenameProjectInput = z.strictObject({
  id: z.string().min(1).max(64),
  name: ZProjectName,
  // The revision the editor read; a stale one is a CONFLICT, never a silent overwrite.
  revision: z.number().int().positive(),
});
export type TRenameProjectInput = z.infer<typeof ZRenameProjectInput>;

export const ZArchiveProjectInput = z.strictObject({
  id: z.string().min(1).max(64),
  revision: z.number().int().positive(),
});

export const ZListProjectsInput = z
  .strictObject({ includeArchived: z.boolean().default(false) })
  .default({ includeArchived: false });

export interface ProjectView {
  id: string;
  name: string;
  revision: number;
  archived: boolean;
  archivedAt: string | null;
  /** The computer new work starts on; null: This computer. */
  defaultTargetId: string | null;
  createdAt: string;
  updatedAt: string;
}

export const ZSetDefaultComputerInput = z.strictObject({ id: z.string().min(1).max(64), targetId: z.string().min(1).max(64).nullable() });
