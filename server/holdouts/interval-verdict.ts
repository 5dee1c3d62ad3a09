/**
 * The one reading of a holdout difference's interval (second version − first, in the
 * metric's units): a gain when the whole interval is on the better side of zero, a loss
 * when it is on the worse side, else no clear difference. The agents' verdict, a policy's
 * gate and the Models page all read it here. Pure: the page imports it too.
 */
export type HoldoutVerdict = "second_better" | "first_better" | "no_clear_difference";

export function intervalVerdict(direction: "higher_is_better" | "lower_is_better", low: number, high: number): HoldoutVerdict {
  const gainLow = direction === "higher_is_better" ? low : -high;
  const gainHigh = direction === "higher_is_better" ? high : -low;
  return gainLow > 0 ? "second_better" : gainHigh < 0 ? "first_better" : "no_clear_difference";
}
