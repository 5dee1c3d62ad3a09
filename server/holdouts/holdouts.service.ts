/** The holdouts' one entry point for routers, the upload route and the CLI. */
import { getDb, type Db } from "@/server/db/client";
import { projectsService } from "@/server/projects/projects.service";
import { compareOnHoldout } from "./compare";
import { createHoldoutFromUpload, holdoutView } from "./create";
import { holdoutsRepository } from "./holdouts.repository";
import { ZListHoldoutsInput, type TCompareOnHoldoutInput, type THoldoutUploadQuery } from "./holdouts.schema";

export function holdoutsService(db: Db = getDb()) {
  return {
    createFromUpload: (q: THoldoutUploadQuery, body: AsyncIterable<Uint8Array>, contentLength: number | null) => createHoldoutFromUpload(db, q, body, contentLength),
    async list(raw: { projectId: string }) {
      const { projectId } = ZListHoldoutsInput.parse(raw);
      await projectsService(db).get(projectId);
      return (await holdoutsRepository(db).ofProject(projectId)).map(holdoutView);
    },
    compare: (input: TCompareOnHoldoutInput) => compareOnHoldout(db, input),
  };
}
