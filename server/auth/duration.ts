/**
 * Durations as people type them on the command line: a whole number and a unit, `12h`,
 * `30d`, `2w`. Minutes and months are left out on purpose (`m` would be ambiguous).
 */
import { badInput } from "@/server/errors";

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
// Ten years: longer is a typo, and "never expires" is spelled by leaving --expires out.
const MAX_MS = 3650 * 86_400_000;

export function parseDuration(text: string): number {
  const m = /^(\d{1,6})([hdw])$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
  if (!m || ms <= 0 || ms > MAX_MS) {
    throw badInput(
      `Cannot read the duration "${text}": give a whole number and h (hours), d (days) or w (weeks), ` +
        `from 1h up to 3650d, e.g. 12h or 30d.`,
    );
  }
  return ms;
}
