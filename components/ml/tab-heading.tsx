import Link from "next/link";

/** The heading row of the Overview and Experiments tabs: the tab's title, and the ways to start training. */
export function TabHeading({ id, title, projectId }: { id: string; title: string; projectId: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="flex flex-wrap gap-2">
        <Link href={`/projects/${projectId}/ml/train`} className="inline-flex min-h-10 items-center rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800">
          Train a prediction model
        </Link>
        <Link href={`/projects/${projectId}/ml/finetune`} className="inline-flex min-h-10 items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100">
          Fine-tune a language model
        </Link>
      </div>
    </div>
  );
}
