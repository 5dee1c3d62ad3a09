import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { benjaminiHochberg, columnDrift, driftedColumns, jsDistance, psi, sampleCounts, seededRandom } from "./drift-stats";

// Written by fixtures/make-scipy-golden.py (its header says how to run it).
const GOLDEN = z
  .object({ cases: z.array(z.object({ name: z.string(), p: z.array(z.number()), q: z.array(z.number()), floor: z.number(), js: z.number(), psi: z.number() })) })
  .parse(JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures/scipy-golden.json"), "utf8")));

describe("Jensen–Shannon distance and PSI", () => {
  it.each(GOLDEN.cases.map((c) => [c.name, c] as const))("agree with scipy to 1e-9: %s", (_, c) => {
    expect(Math.abs(jsDistance(c.p, c.q) - c.js)).toBeLessThanOrEqual(1e-9);
    expect(Math.abs(psi(c.p, c.q, c.floor) - c.psi)).toBeLessThanOrEqual(1e-9);
  });

  it("are 0 for the same proportions and 1 for disjoint bins, and refuse bins that do not match or hold nothing", () => {
    expect(jsDistance([3, 1, 0], [30, 10, 0])).toBe(0);
    expect(jsDistance([3, 0, 0], [0, 2, 5])).toBe(1);
    expect(() => jsDistance([1, 2], [1, 2, 3])).toThrow(/length/);
    expect(() => psi([1, 2], [1, 2, 3])).toThrow(/length/);
    expect(() => jsDistance([0, 0], [1, 2])).toThrow(/zero/);
  });
});

describe("multinomial draws", () => {
  it("are reproducible from a seed, put all n in the bins, and never in a bin of probability 0", () => {
    const draw = (seed: number) => sampleCounts([0.5, 0, 0.3, 0.2], 1000, seededRandom(seed));
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
    for (let seed = 0; seed < 50; seed++) {
      const counts = draw(seed);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1000);
      expect(counts[1]).toBe(0);
    }
    expect(sampleCounts([1, 2], 0, seededRandom(1))).toEqual([0, 0]);
  });

  // Each bin is a binomial of what the bins before it left: its marginal must be Binomial(n, p), by whichever method
  // (inversion where n·p ≤ 10, rejection above, and n − Binomial(n, 1 − p) for p > ½) it was drawn. 200 000 draws tell
  // a mean off by a twentieth of a count near the switch, where rejection's hat is least exact.
  it.each([
    { probabilities: [0.2, 0.8], n: 20, bin: 0, method: "inversion" },
    { probabilities: [0.05, 0.95], n: 300, bin: 0, method: "rejection, n·p just above 10" },
    { probabilities: [0.5, 0.5], n: 40, bin: 0, method: "rejection, p = ½" },
    { probabilities: [0.3, 0.7], n: 1000, bin: 0, method: "rejection" },
    { probabilities: [0.7, 0.3], n: 1000, bin: 0, method: "rejection, p > ½" },
    { probabilities: [0.2, 0.5, 0.3], n: 1000, bin: 1, method: "a later bin" },
  ])("give each bin a Binomial(n, p) count ($method)", ({ probabilities, n, bin }) => {
    const random = seededRandom(11);
    const seen = new Array<number>(n + 1).fill(0);
    const draws = 200_000;
    for (let i = 0; i < draws; i++) seen[sampleCounts(probabilities, n, random)[bin]!]! += 1;
    const p = probabilities[bin]!;
    const { statistic, df } = chiSquare(seen, binomialPmf(n, p), draws);
    expect(statistic).toBeLessThan(chiSquareQuantile999(df));
    const mean = seen.reduce((a, c, k) => a + c * k, 0) / draws;
    expect(Math.abs(mean - n * p) / Math.sqrt((n * p * (1 - p)) / draws)).toBeLessThan(4);
  });

  it("draw n = 10 000 over 11 bins 1000 times for each of 10 columns in well under a second", () => {
    const random = seededRandom(5);
    const p = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.09, 0.01];
    const start = performance.now();
    for (let column = 0; column < 10; column++) for (let s = 0; s < 1000; s++) sampleCounts(p, 10_000, random);
    const ms = performance.now() - start;
    console.log(`sampleCounts, 10 000 × 1000 × 10: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1000);
  });
});

describe("Benjamini–Hochberg", () => {
  it("rejects the four smallest of Benjamini and Hochberg's fifteen p-values at 0.05, in input order", () => {
    // Benjamini & Hochberg (1995), section 4.
    const sorted = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1];
    const order = [14, 3, 9, 0, 7, 12, 2, 5, 11, 1, 8, 13, 4, 10, 6];
    const rejected = benjaminiHochberg(
      order.map((i) => sorted[i]!),
      0.05,
    );
    expect(order.filter((_, k) => rejected[k])).toEqual([3, 0, 2, 1]);
  });

  it("steps up: a larger p-value under its bar rejects the smaller ones above theirs", () => {
    expect(benjaminiHochberg([0.04, 0.01, 0.03, 0.04], 0.05)).toEqual([true, true, true, true]);
    expect(benjaminiHochberg([0.04, 0.01, 0.03, 0.06], 0.05)).toEqual([false, true, false, false]);
    expect(benjaminiHochberg([], 0.05)).toEqual([]);
  });
});

// Six columns over 10 bins, each with its own reference of 300 training rows drawn once.
const DISTRIBUTIONS = [
  [0.02, 0.05, 0.1, 0.15, 0.18, 0.18, 0.15, 0.1, 0.05, 0.02],
  [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1],
  [0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.05, 0.03, 0.02, 0.01],
  [0.05, 0.05, 0.1, 0.1, 0.2, 0.2, 0.1, 0.1, 0.05, 0.05],
  [0.01, 0.02, 0.03, 0.04, 0.1, 0.1, 0.2, 0.2, 0.2, 0.1],
  [0.12, 0.08, 0.12, 0.08, 0.12, 0.08, 0.12, 0.08, 0.12, 0.08],
];
const referenceRandom = seededRandom(1);
const REFERENCES = DISTRIBUTIONS.map((d) => sampleCounts(d, 300, referenceRandom));

/** A window of n live requests per column, drawn afresh from the distributions (the first one's replaced by `first`). */
const liveWindow = (n: number, random: () => number, first = DISTRIBUTIONS[0]!) =>
  DISTRIBUTIONS.map((d, i) => ({ name: `column ${i}`, reference: REFERENCES[i]!, window: sampleCounts(i === 0 ? first : d, n, random) }));

describe("drift verdicts", () => {
  // 500 windows × 6 columns × 600 bootstrap pairs (the fewest that can flag one column of 6 at alpha 0.01).
  it.each([200, 30])("flag at most one in fifty windows of %i requests drawn from the training distribution", (n) => {
    const random = seededRandom(n);
    const start = performance.now();
    let alarms = 0;
    for (let w = 0; w < 500; w++) if (driftedColumns(liveWindow(n, random), { samples: 600 }).some((c) => c.drifted)) alarms++;
    console.log(`false alarms at n = ${n}: ${alarms} of 500 windows, ${(performance.now() - start).toFixed(0)} ms`);
    expect(alarms / 500).toBeLessThanOrEqual(0.02);
    // About 3 s alone; the whole unit tier runs beside it.
  }, 60_000);

  it("flag a column whose mass moved two bins up, and none of the others, in a window of 200", () => {
    const d = DISTRIBUTIONS[0]!;
    const shifted = [0, 0, ...d.slice(0, 7), d[7]! + d[8]! + d[9]!];
    const random = seededRandom(7);
    for (let w = 0; w < 5; w++) {
      const verdicts = driftedColumns(liveWindow(200, random, shifted));
      expect(verdicts.map((v) => v.drifted)).toEqual([true, false, false, false, false, false]);
      expect(verdicts[0]!.drift.js).toBeGreaterThan(verdicts[0]!.drift.threshold);
      expect(verdicts[0]!.drift.pValue).toBe(1 / 1001);
    }
  });

  it("take more bootstrap pairs where there are too many columns for 1000 to flag one", () => {
    // 20 columns at alpha 0.01: BH's first bar is 0.0005, below 1 / 1001.
    const random = seededRandom(9);
    const columns = Array.from({ length: 20 }, (_, i) => ({ name: `c${i}`, reference: REFERENCES[1]!, window: sampleCounts(DISTRIBUTIONS[i === 0 ? 2 : 1]!, 200, random) }));
    const verdicts = driftedColumns(columns);
    expect(verdicts[0]!.drifted).toBe(true);
    expect(verdicts[0]!.drift.pValue).toBe(1 / 2001);
  });

  it("leave a column with an empty window undrifted and out of the correction", () => {
    const columns = liveWindow(200, seededRandom(3));
    columns[1]!.window = columns[1]!.window.map(() => 0);
    const verdicts = driftedColumns(columns, { samples: 600 });
    expect(verdicts[1]).toEqual({ name: "column 1", drift: { js: 0, psi: 0, threshold: 0, pValue: 1 }, drifted: false });
  });

  it("are reproducible, and give a window shaped like its reference p-value 1", () => {
    const reference = REFERENCES[2]!;
    const window = [40, 10, 10, 10, 10, 10, 10, 10, 10, 30];
    expect(columnDrift(reference, window, { samples: 200, seed: 4 })).toEqual(columnDrift(reference, window, { samples: 200, seed: 4 }));
    const same = columnDrift(reference, reference, { samples: 200 });
    expect(same.js).toBe(0);
    expect(same.pValue).toBe(1);
    expect(same.threshold).toBeGreaterThan(0);
  });
});

/** P(X = k) for X ~ Binomial(n, p), k = 0..n, by the ratio of successive terms (from the end nearer the mass, so (1 − p)^n never underflows). */
function binomialPmf(n: number, p: number): number[] {
  if (p > 0.5) return binomialPmf(n, 1 - p).reverse();
  const pmf = [(1 - p) ** n];
  for (let k = 0; k < n; k++) pmf.push((pmf[k]! * (n - k) * p) / ((k + 1) * (1 - p)));
  return pmf;
}

/** Pearson's statistic of observed counts against a pmf, neighbouring values pooled until each cell expects at least 5. */
function chiSquare(seen: readonly number[], pmf: readonly number[], draws: number): { statistic: number; df: number } {
  const cells: { seen: number; expected: number }[] = [];
  let cell = { seen: 0, expected: 0 };
  pmf.forEach((p, k) => {
    cell.seen += seen[k]!;
    cell.expected += p * draws;
    if (cell.expected < 5) return;
    cells.push(cell);
    cell = { seen: 0, expected: 0 };
  });
  const last = cells[cells.length - 1]!;
  last.seen += cell.seen;
  last.expected += cell.expected;
  return { statistic: cells.reduce((s, c) => s + (c.seen - c.expected) ** 2 / c.expected, 0), df: cells.length - 1 };
}

/** The 0.999 quantile of χ² with df degrees of freedom (Wilson–Hilferty). */
function chiSquareQuantile999(df: number): number {
  const z = 3.0902;
  const h = 2 / (9 * df);
  return df * (1 - h + z * Math.sqrt(h)) ** 3;
}
