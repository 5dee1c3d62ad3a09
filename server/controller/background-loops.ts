/**
 * The background loops of one server process (reconcile, later schedules and
 * monitors). Started once by startServer; the returned function stops them all.
 */
import type { AppConfig } from "@/server/config/env";
import type { HomePaths } from "@/server/config/home";

type Loop = (config: AppConfig, home: HomePaths) => () => Promise<void> | void;

const loops: Loop[] = [];

/** Domains register their loop at import time of this module's callers. */
export function registerLoop(loop: Loop): void {
  loops.push(loop);
}

export function startBackgroundLoops(config: AppConfig, home: HomePaths): () => Promise<void> {
  const stops = loops.map((l) => l(config, home));
  return async () => {
    for (const stop of stops) await stop();
  };
}
