import { TrainingComputers } from "@/components/settings/training-computers";
import { AllowedRoots } from "@/components/settings/allowed-roots";

export default function SettingsPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <TrainingComputers />
      <AllowedRoots />
    </div>
  );
}
