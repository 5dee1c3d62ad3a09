import { LoginForm } from "@/components/ui/login-form";

export default function LoginPage() {
  return (
    <div className="mx-auto flex max-w-sm flex-col gap-4">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      <p className="text-sm text-slate-700">This Trainyard workspace is protected by its owner password.</p>
      <LoginForm />
    </div>
  );
}
