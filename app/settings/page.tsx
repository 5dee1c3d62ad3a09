import { TrainingComputers } from "@/components/settings/training-computers";
import { AllowedRoots } from "@/components/settings/allowed-roots";
import { SessionsAndTokens } from "@/components/settings/sessions-and-tokens";
import { RegistrySettings } from "@/components/settings/registry-settings";
import { AgentPolicySettings } from "@/components/settings/agent-policy";
import { NotificationsSettings } from "@/components/settings/notifications/notifications-settings";

export default function SettingsPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <TrainingComputers />
      <AllowedRoots />
      <RegistrySettings />
      <AgentPolicySettings />
      <NotificationsSettings />
      <SessionsAndTokens />
    </div>
  );
}
