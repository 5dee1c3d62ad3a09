import type { TargetView } from "@/server/targets/targets.schema";

type Candidate = Pick<TargetView, "id" | "thisComputer" | "enabled">;

/**
 * The computer the wizard trains on: the one picked in this draft, else the project's
 * default, else This computer. Each only while enabled: a computer disabled since it was
 * picked must not be started on silently (the server would refuse it anyway).
 */
export function chooseComputer<T extends Candidate>(targets: T[], picked: string | null, projectDefault: string | null): T | undefined {
  const usable = targets.filter((t) => t.enabled);
  const byId = (id: string | null) => (id ? usable.find((t) => t.id === id) : undefined);
  return byId(picked) ?? byId(projectDefault) ?? usable.find((t) => t.thisComputer) ?? usable[0];
}
