import Link from "next/link";

export function TopNav() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-semibold text-slate-900">
          Trainyard
        </Link>
        <ul className="flex flex-wrap items-center gap-x-4 text-sm">
          <li>
            <Link href="/" className="text-slate-700 underline-offset-4 hover:underline">
              Projects
            </Link>
          </li>
          <li>
            <Link href="/settings" className="text-slate-700 underline-offset-4 hover:underline">
              Settings
            </Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
