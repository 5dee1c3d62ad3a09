"use client";
import { ColumnHeaders } from "@/components/ui/column-headers";
import type { Profile, ProfileColumn } from "@/contracts/recipes";

function summary(c: ProfileColumn): string {
  if (c.min != null && c.max != null) return `${c.min} – ${c.max}`;
  if (c.topValues?.length) return c.topValues.slice(0, 3).map((t) => `${t.value} (${t.count})`).join(", ");
  return "";
}

/** One row per column of the profile: type, missing, distinct, range or top values. */
export function ProfileTable({ profile, name }: { profile: Profile; name: string }) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={`Profile of ${name}`}>
      <table className="min-w-full text-left text-sm" data-testid="profile-table">
        <caption className="px-2 py-1 text-left text-sm text-slate-700">
          {profile.rows.toLocaleString("en")} rows, {profile.columns.length} columns
          {profile.duplicateRows ? `, ${profile.duplicateRows.toLocaleString("en")} exact duplicate rows` : ""}
        </caption>
        <ColumnHeaders names={["Column", "Type", "Missing", "Distinct", "Range or most common"]} />
        <tbody>
          {profile.columns.map((c) => (
            <tr key={c.name} className="border-t border-slate-100">
              <th scope="row" className="whitespace-nowrap px-2 py-1 font-medium">{c.name}</th>
              <td className="px-2 py-1">{c.type}</td>
              <td className="px-2 py-1">{c.missing ?? "—"}</td>
              <td className="px-2 py-1">{c.distinct ?? "—"}</td>
              <td className="px-2 py-1">{summary(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
