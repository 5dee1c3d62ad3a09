/**
 * Deployment monitors (issue 30; server/monitoring; docs/monitoring.md), shapes in
 * contracts/monitoring: create {deploymentId, windowRequests?, minRows?, alertAfter?},
 * list {deploymentId}, show / check / pause / resume / retry / reference {monitorId}.
 * `check` closes the open window now and answers every window with its verdict.
 * acceptWindow {monitorId, seq} makes a closed window's counts the reference.
 * projectHealth {projectId} → each deployment and the health of the release it serves.
 * setPolicy {monitorId, policy} arms a health policy (automatic rollback); pausePolicy {monitorId}.
 */
import { procedure, router } from "../trpc";
import { ZAcceptWindowInput, ZCreateMonitorInput, ZDeploymentMonitorsInput, ZMonitorIdInput, ZProjectHealthInput, ZSetPolicyInput } from "@/contracts/monitoring/monitoring";
import { monitorsService } from "@/server/monitoring/monitors.service";

export const monitorsRouter = router({
  create: procedure.input(ZCreateMonitorInput).mutation(({ input }) => monitorsService().create(input)),
  list: procedure.input(ZDeploymentMonitorsInput).query(({ input }) => monitorsService().listForDeployment(input.deploymentId)),
  show: procedure.input(ZMonitorIdInput).query(({ input }) => monitorsService().view(input.monitorId)),
  check: procedure.input(ZMonitorIdInput).mutation(({ input }) => monitorsService().check(input.monitorId)),
  pause: procedure.input(ZMonitorIdInput).mutation(({ input }) => monitorsService().pause(input.monitorId)),
  resume: procedure.input(ZMonitorIdInput).mutation(({ input }) => monitorsService().resume(input.monitorId)),
  retry: procedure.input(ZMonitorIdInput).mutation(({ input }) => monitorsService().retry(input.monitorId)),
  setPolicy: procedure.input(ZSetPolicyInput).mutation(({ input }) => monitorsService().setPolicy(input)),
  pausePolicy: procedure.input(ZMonitorIdInput).mutation(({ input }) => monitorsService().pausePolicy(input.monitorId)),
  projectHealth: procedure.input(ZProjectHealthInput).query(({ input }) => monitorsService().projectHealth(input.projectId)),
  acceptWindow: procedure.input(ZAcceptWindowInput).mutation(({ input }) => monitorsService().acceptWindow(input)),
  reference: procedure.input(ZMonitorIdInput).query(({ input }) => monitorsService().reference(input.monitorId)),
});
