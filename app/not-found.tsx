import Link from "next/link";

export default function NotFound() {
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-sm text-slate-700">
        There is nothing at this address. <Link href="/" className="text-blue-800 underline">Go to your projects</Link>.
      </p>
    </div>
  );
}
