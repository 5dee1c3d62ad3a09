"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

/** The project's tabs. They wrap onto a second line on a phone rather than scroll: a tab out of view behind a swipe is one nobody finds. */
export function MlTabs({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  const base = `/projects/${projectId}/ml`;
  const tabs = [
    { href: base, label: "Overview" },
    { href: `${base}/data`, label: "Data" },
    { href: `${base}/experiments`, label: "Experiments" },
    { href: `${base}/searches`, label: "Searches" },
    { href: `${base}/models`, label: "Models" },
    { href: `${base}/deployments`, label: "Deployments" },
    { href: `${base}/schedules`, label: "Schedules" },
  ];
  return (
    <nav aria-label="Machine learning">
      <ul className="flex flex-wrap gap-x-1 border-b border-slate-200">
        {tabs.map((t) => {
          const active = pathname === t.href;
          return (
            <li key={t.href}>
              <Link
                href={t.href}
                aria-current={active ? "page" : undefined}
                className={`inline-block min-h-10 border-b-2 px-2 py-2 text-sm font-medium sm:px-3 ${
                  active ? "border-blue-700 text-blue-800" : "border-transparent text-slate-700 hover:text-slate-900"
                }`}
              >
                {t.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
