"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TargetDetailView } from "@/server/targets/targets.schema";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { AccessReport } from "./access-report";
import { ServerForm } from "./add-server-form";
import { Busy } from "./busy";
import { HostKeyPanel } from "./host-key-panel";
import { RemoveServer } from "./remove-server";
import { SetupPanel } from "./setup-panel";

type Panel = "setup" | "edit" | "delete" | null;

/** What the owner does with an SSH computer: Test access, accept its key, Set up, edit, disable, delete. */
export function ServerActions({ target: t }: { target: TargetDetailView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [panel, setPanel] = useState<Panel>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.targets.pathKey() });
  const access = useMutation(trpc.targets.testAccess.mutationOptions({ onSettled: refresh }));
  const enable = useMutation(trpc.targets.setEnabled.mutationOptions({ onSuccess: refresh }));
  const toggle = (p: Panel) => setPanel((open) => (open === p ? null : p));
  const busy = access.isPending;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => access.mutate({ id: t.id })} disabled={busy} aria-label={`Test access to ${t.name}`}>
          Test access
        </Button>
        <Button variant="secondary" onClick={() => toggle("setup")} aria-expanded={panel === "setup"} aria-label={`Set up ${t.name}`}>
          Set up
        </Button>
        <Button variant="secondary" onClick={() => toggle("edit")} aria-expanded={panel === "edit"} aria-label={`Edit ${t.name}`}>
          Edit
        </Button>
        <Button variant="secondary" onClick={() => enable.mutate({ id: t.id, enabled: !t.enabled })} disabled={enable.isPending} aria-label={`${t.enabled ? "Disable" : "Enable"} ${t.name}`}>
          {t.enabled ? "Disable" : "Enable"}
        </Button>
        <Button variant="secondary" onClick={() => toggle("delete")} aria-expanded={panel === "delete"} aria-label={`Delete ${t.name}…`}>
          Delete…
        </Button>
      </div>
      {enable.error && <ErrorMessage>{errorText(enable.error)}</ErrorMessage>}
      {access.isPending && <Busy label={`Testing access to ${t.name}`} />}
      {access.error && <ErrorMessage>{errorText(access.error)}</ErrorMessage>}
      {access.data && !busy && <AccessReport report={access.data} targetName={t.name} />}
      {/* An accepted key makes the report above stale: it said the key was refused. */}
      {t.hostKeyProblem && <HostKeyPanel targetId={t.id} targetName={t.name} problem={t.hostKeyProblem} onAccepted={() => access.reset()} />}
      {panel === "setup" && <SetupPanel targetId={t.id} targetName={t.name} onInstalled={() => access.reset()} onClose={() => setPanel(null)} />}
      {panel === "edit" && <ServerForm target={t} onDone={() => setPanel(null)} onCancel={() => setPanel(null)} />}
      {panel === "delete" && <RemoveServer targetId={t.id} targetName={t.name} onCancel={() => setPanel(null)} />}
    </div>
  );
}
