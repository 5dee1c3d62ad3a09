-- What a queued job waits for, typed (the worker receipt's waitingFor): the resource and the jobs holding it.
ALTER TABLE "Job" ADD COLUMN "waitingFor" TEXT;
