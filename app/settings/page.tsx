import { AllowedRoots } from "@/components/settings/allowed-roots";

export default function SettingsPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <section aria-labelledby="computers-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="computers-heading" className="text-lg font-semibold">
          Training computers
        </h2>
        <p className="mt-1 text-sm text-slate-700">This computer is the training computer.</p>
      </section>
      <AllowedRoots />
    </div>
  );
}
