/** The copyable example of a deployment's predict route, with the server's real URL. */
export function curlExample(origin: string, predictPath: string, key: string | null, example: Record<string, unknown>): string {
  const body = JSON.stringify({ rows: [example] });
  return [
    `curl -s -X POST '${origin}${predictPath}' \\`,
    `  -H 'Authorization: Bearer ${key ?? "<your deployment key>"}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '${body.replace(/'/g, "'\\''")}'`,
  ].join("\n");
}
