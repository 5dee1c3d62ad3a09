/** Every agent tool, in the order an agent is offered them. */
import { READ_TOOLS } from "./read-tools";
import { SEARCH_TOOLS } from "./search-tools";
import { getMonitoring } from "./monitoring-tool";
import { listSchedules } from "./schedules-tool";
import { compareOnHoldout } from "./holdout-tool";
import { approvePromotion } from "./approve-tool";

export const AGENT_TOOLS = [...READ_TOOLS, getMonitoring, listSchedules, ...SEARCH_TOOLS, compareOnHoldout, approvePromotion];
