/**
 * "Now" for schedules and promotion policies' expiries, injectable so that tests move time
 * instead of sleeping through it: with TRAINYARD_TEST_CLOCK_FILE set, now is the ISO time
 * written in that file (real time while the file is missing). Only those read it: jobs,
 * deadlines and the rest of the server keep real time.
 */
import { readFileSync } from "node:fs";

export function scheduleNow(): Date {
  const file = process.env.TRAINYARD_TEST_CLOCK_FILE;
  if (!file) return new Date();
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch {
    return new Date();
  }
  const t = new Date(text);
  if (Number.isNaN(t.getTime())) throw new Error(`TRAINYARD_TEST_CLOCK_FILE holds "${text}", not an ISO time`);
  return t;
}
