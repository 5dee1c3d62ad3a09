/** Who a schedule's runs act for: the principal that made it (a search records its starter). */
import { ZPrincipal, type Principal } from "@/server/auth/principal";
import type { ScheduleRow } from "./schedules.repository";

export const principalOf = (s: Pick<ScheduleRow, "createdBy">): Principal => ZPrincipal.parse(JSON.parse(s.createdBy));
