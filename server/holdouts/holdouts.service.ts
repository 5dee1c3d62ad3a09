/** The holdouts' one entry point for routers, the upload route and the CLI. */
import { getDb, type Db } from "@/server/db/client";
import { projectsService } from "@/server/projects/projects.service";
import { badInput } from "@/server/errors";
import { compareOnHoldout } from "./compare";
import { refuseValuesToAgents, verdictOf, type HoldoutCaller } from "./verdict";
import { createHoldoutFromUpload, holdoutView } from "./create";
import { reserveNewestRows } from "./reserve-newest";
import { deleteHoldout, holdoutDeletePreview } from "./delete";
import { holdoutsRepository } from "./holdouts.repository";
import { ZHoldoutIdInput, ZListHoldoutsInput, type TCompareOnHoldoutInput, type THoldoutUploadQuery, type TReserveNewestInput } from "./holdouts.schema";

export function holdoutsService(db: Db = getDb()) {
  return {
    createFromUpload: (q: THoldoutUploadQuery, body: AsyncIterable<Uint8Array>, contentLength: number | null) => createHoldoutFromUpload(db, q, body, contentLength),
    reserveNewest: (input: TReserveNewestInput) => reserveNewestRows(db, input),
    async list(raw: { projectId: string }) {
      const { projectId } = ZListHoldoutsInput.parse(raw);
      await projectsService(db).get(projectId);
      return (await holdoutsRepository(db).ofProject(projectId)).map(holdoutView);
    },
    deletePreview: (raw: { id: string }) => holdoutDeletePreview(db, ZHoldoutIdInput.parse(raw).id),
    delete: (raw: { id: string }) => deleteHoldout(db, ZHoldoutIdInput.parse(raw).id),
    /** Every value; refused to a call through the agent tools (verdict.ts). */
    async compare(input: TCompareOnHoldoutInput, caller: HoldoutCaller) {
      refuseValuesToAgents(caller);
      return compareOnHoldout(db, input);
    },
    /** Which of two versions the holdout favours, without values: what agents get. */
    async verdict(input: TCompareOnHoldoutInput) {
      if (input.versions.length !== 2) throw badInput("A verdict compares exactly two versions.");
      return verdictOf(await compareOnHoldout(db, input));
    },
  };
}
