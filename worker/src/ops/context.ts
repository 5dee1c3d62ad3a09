// What every op handler gets: the parsed config and the home layout.
import type { WorkerConfig } from "../config";
import type { Home } from "../home";

export interface Ctx {
  cfg: WorkerConfig;
  home: Home;
}
