import { router, createCallerFactory } from "./trpc";
import { projectsRouter } from "./routers/projects.router";
import { jobsRouter } from "./routers/jobs.router";
import { targetsRouter } from "./routers/targets.router";
import { datasetsRouter } from "./routers/datasets.router";
import { settingsRouter } from "./routers/settings.router";
import { experimentsRouter } from "./routers/experiments.router";
import { draftsRouter } from "./routers/drafts.router";
import { predictionsRouter } from "./routers/predictions.router";
import { authRouter } from "./routers/auth.router";
import { modelsRouter } from "./routers/models.router";
import { finetuneRouter } from "./routers/finetune.router";
import { deploymentsRouter } from "./routers/deployments.router";
import { searchesRouter } from "./routers/searches.router";
import { monitorsRouter } from "./routers/monitors.router";
import { schedulesRouter } from "./routers/schedules.router";
import { notificationsRouter } from "./routers/notifications.router";
import { holdoutsRouter } from "./routers/holdouts.router";
import { policiesRouter } from "./routers/policies.router";

export const appRouter = router({
  projects: projectsRouter,
  jobs: jobsRouter,
  targets: targetsRouter,
  datasets: datasetsRouter,
  settings: settingsRouter,
  experiments: experimentsRouter,
  drafts: draftsRouter,
  predictions: predictionsRouter,
  auth: authRouter,
  models: modelsRouter,
  finetune: finetuneRouter,
  deployments: deploymentsRouter,
  searches: searchesRouter,
  monitors: monitorsRouter,
  schedules: schedulesRouter,
  notifications: notificationsRouter,
  holdouts: holdoutsRouter,
  policies: policiesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
