/** A person-readable message from a tRPC or fetch error. */
export function errorText(err: unknown): string {
  if (!err) return "";
  const e = err as { message?: string; data?: { zodIssues?: { message: string }[] | null } };
  const issue = e.data?.zodIssues?.[0]?.message;
  return issue ?? e.message ?? "Something went wrong.";
}
