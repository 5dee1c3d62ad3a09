import Link from "next/link";
import { LoginForm } from "@/components/ui/login-form";
import { ownerService } from "@/server/auth/owner.service";
import { safeNextPath } from "@/server/auth/next-path";

// Whether a password is set, and the next path, are read per request.
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Public (the guard lets /login through): it must work before anyone has signed in. */
export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const next = safeNextPath((await searchParams).next);
  if (!(await ownerService().hasPassword())) return <NoPasswordSet next={next} />;
  return (
    <div className="mx-auto flex max-w-sm flex-col gap-4">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      <p className="text-sm text-slate-700">This Trainyard workspace is protected by its owner password.</p>
      {next !== "/" && (
        <p className="text-sm text-slate-700">
          After signing in you will be taken to <code className="break-all font-mono">{next}</code>.
        </p>
      )}
      <LoginForm next={next} />
    </div>
  );
}

function NoPasswordSet({ next }: { next: string }) {
  return (
    <div className="mx-auto flex max-w-prose flex-col gap-4">
      <h1 className="text-2xl font-semibold">No owner password is set</h1>
      <p className="text-sm text-slate-700">
        There is nothing to sign in with: this workspace has no owner password, so it answers only on this computer (a
        loopback address) and anyone who can use this computer can use it.
      </p>
      <p className="text-sm text-slate-700">To protect it with a password, run this in a terminal on the computer that runs Trainyard:</p>
      <pre className="overflow-x-auto rounded-md bg-slate-100 px-3 py-2 text-sm">
        <code>npx trainyard owner set-password</code>
      </pre>
      <p className="text-sm text-slate-700">
        The password applies at once, without a restart; after that, every page and API call needs a sign-in or an API token.
      </p>
      <Link href={next} className="self-start text-sm font-medium text-blue-700 underline">
        Continue to the workspace
      </Link>
    </div>
  );
}
