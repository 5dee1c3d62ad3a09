import type { ReactNode } from "react";

/** A titled section of a page (experiment, search, fine-tuning, deployment); the heading names the region for screen readers. */
export function Card({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id={id} className="text-base font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}
