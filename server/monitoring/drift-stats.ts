/**
 * The statistics of input drift, kept free of the database: how far a window's bin counts
 * are from the reference's (Jensen–Shannon distance, base 2, in [0, 1]; PSI as well), and
 * whether that distance is improbably large for the window's own size. A fixed cut-off
 * ("JS > 0.1") flags every column of a 30-request window and misses real shifts in a
 * 100 000-request one, so the threshold comes from a bootstrap at the window's size: pairs
 * of samples, window-sized and reference-sized, both drawn from the reference's proportions,
 * give the distances that chance alone produces. Benjamini–Hochberg across the columns keeps
 * a window of many columns from flagging one by chance.
 *
 * Limits: the null is the reference's own proportions, so a bin the reference never filled
 * (often missing, or other) is never filled in the bootstrap either; a window with values
 * there reads as drift, however small the reference was. Verdicts are reproducible: the
 * bootstrap runs on a seeded generator, never Math.random.
 */

export interface ColumnDrift {
  /** Jensen–Shannon distance (base 2) of the window from the reference. */
  js: number;
  /** Population stability index of the window against the reference. */
  psi: number;
  /** The `quantile` of the bootstrap distances at this window's size: a larger js is unusual. */
  threshold: number;
  /** Share of bootstrap distances at least as large as js, (1 + count) / (samples + 1). */
  pValue: number;
}

/** What a column with an empty window reports: nothing to compare, so no drift. */
const NOTHING_TO_COMPARE: ColumnDrift = { js: 0, psi: 0, threshold: 0, pValue: 1 };

const sum = (v: readonly number[]): number => v.reduce((a, b) => a + b, 0);

/** Counts (or weights) as proportions; throws on a negative, non-finite or all-zero vector, which no caller should pass. */
function proportions(v: readonly number[], what: string): number[] {
  if (v.some((x) => !Number.isFinite(x) || x < 0)) throw new Error(`${what}: counts must be finite and non-negative`);
  const total = sum(v);
  if (total === 0) throw new Error(`${what}: all counts are zero`);
  return v.map((x) => x / total);
}

function sameLength(p: readonly number[], q: readonly number[]): void {
  if (p.length !== q.length) throw new Error(`bin counts differ in length: ${p.length} and ${q.length}`);
}

/** x·ln(x/y), 0 where x is 0 (scipy.special.rel_entr for the x, y this module passes). */
const relEntr = (x: number, y: number): number => (x === 0 ? 0 : x * Math.log(x / y));

/** Jensen–Shannon distance, base 2, of two count vectors over the same bins: 0 identical, 1 disjoint; bounded and symmetric, unlike KL or PSI. */
export function jsDistance(p: readonly number[], q: readonly number[]): number {
  sameLength(p, q);
  return jsOfProportions(proportions(p, "p"), proportions(q, "q"));
}

/** As scipy.spatial.distance.jensenshannon: (KL(a‖m) + KL(b‖m)) / 2 in bits, m the mean of a and b, then the square root. */
function jsOfProportions(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let divergence = 0;
  for (let i = 0; i < a.length; i++) {
    const m = (a[i]! + b[i]!) / 2;
    divergence += relEntr(a[i]!, m) + relEntr(b[i]!, m);
  }
  return Math.sqrt(Math.min(1, Math.max(0, divergence / Math.LN2 / 2)));
}

/** Population stability index Σ (c − r)·ln(c / r) over proportions floored at `floor` (not renormalised): the figure drift dashboards quote, shown beside js. */
export function psi(ref: readonly number[], cur: readonly number[], floor = 1e-4): number {
  sameLength(ref, cur);
  const r = proportions(ref, "ref").map((x) => Math.max(x, floor));
  const c = proportions(cur, "cur").map((x) => Math.max(x, floor));
  let total = 0;
  for (let i = 0; i < r.length; i++) total += (c[i]! - r[i]!) * Math.log(c[i]! / r[i]!);
  return total;
}

/** mulberry32: a small seeded generator of uniforms in [0, 1), so that a verdict can be recomputed and a test is never flaky. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ln(k!) − (ln √(2π) + (k + ½)·ln(k + 1) − (k + 1)), the error of Stirling's formula: a table below 10, its series above. */
function stirlingTail(k: number): number {
  if (k <= 9) return STIRLING_TAIL[k]!;
  const kp1sq = (k + 1) * (k + 1);
  return (1 / 12 - (1 / 360 - 1 / 1260 / kp1sq) / kp1sq) / (k + 1);
}
const STIRLING_TAIL = [
  0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211, 0.0138761288230707, 0.0118967099458917,
  0.010411265261972, 0.00925546218271273, 0.00833056343336287,
];

/** Binomial(n, p), p ≤ ½, n·p ≤ 10: inversion, walking the probabilities up from (1 − p)^n (BINV), one uniform and about n·p + 1 steps. */
function binomialByInversion(n: number, p: number, random: () => number): number {
  const s = p / (1 - p);
  const a = (n + 1) * s;
  const first = Math.exp(n * Math.log1p(-p));
  for (;;) {
    let u = random();
    let r = first;
    let k = 0;
    while (u > r && k <= n) {
      u -= r;
      k++;
      r *= a / k - s;
    }
    // Past n only when rounding left u above the whole mass: draw again.
    if (k <= n) return k;
  }
}

/** Binomial(n, p), p ≤ ½, n·p > 10: Hörmann's transformed rejection with squeeze (BTRS, 1993), a few uniforms whatever n. */
function binomialByRejection(n: number, p: number, random: () => number): number {
  const spq = Math.sqrt(n * p * (1 - p));
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const r = p / (1 - p);
  const alpha = (2.83 + 5.1 / b) * spq;
  const m = Math.floor((n + 1) * p);
  for (;;) {
    const u = random() - 0.5;
    const v = random();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (!(k >= 0 && k <= n)) continue;
    if (us >= 0.07 && v <= vr) return k;
    const lhs = Math.log((v * alpha) / (a / (us * us) + b));
    const rhs =
      (m + 0.5) * Math.log((m + 1) / (r * (n - m + 1))) +
      (n + 1) * Math.log((n - m + 1) / (n - k + 1)) +
      (k + 0.5) * Math.log((r * (n - k + 1)) / (k + 1)) +
      stirlingTail(m) +
      stirlingTail(n - m) -
      stirlingTail(k) -
      stirlingTail(n - k);
    if (lhs <= rhs) return k;
  }
}

/** An exact Binomial(n, p) draw in time that does not grow with n (as numpy, TensorFlow and JAX draw one). */
function binomial(n: number, p: number, random: () => number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - binomial(n, 1 - p, random);
  return n * p <= 10 ? binomialByInversion(n, p, random) : binomialByRejection(n, p, random);
}

/**
 * A multinomial draw of n over bins with these probabilities (normalised here), as one binomial per bin of what is left:
 * a reference of a million training rows costs what one of a hundred does, which a draw per row would not.
 */
export function sampleCounts(probabilities: readonly number[], n: number, random: () => number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new Error(`n must be a non-negative integer, got ${n}`);
  const draw = multinomial(proportions(probabilities, "probabilities"));
  const counts = new Array<number>(probabilities.length);
  draw(n, random, counts);
  return counts;
}

/** A drawer of multinomial counts over fixed proportions into `out`; the bootstrap calls it thousands of times, so nothing is checked or allocated per draw. */
function multinomial(p: readonly number[]): (n: number, random: () => number, out: number[]) => void {
  // Each bin's share of what is left once the bins before it are drawn; the mass after bin i is summed from the end,
  // so that the last non-empty bin takes all that is left (its share is exactly 1).
  const share = new Array<number>(p.length);
  let after = 0;
  for (let i = p.length - 1; i >= 0; i--) {
    after += p[i]!;
    share[i] = after > 0 ? Math.min(1, p[i]! / after) : 0;
  }
  return (n, random, out) => {
    let left = n;
    for (let i = 0; i < p.length; i++) {
      const k = left > 0 ? binomial(left, share[i]!, random) : 0;
      out[i] = k;
      left -= k;
    }
  };
}

/** The nearest-rank `q` quantile of values sorted ascending. */
const nearestRank = (sorted: Float64Array, q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/**
 * How far one column's window is from its reference, and whether chance explains it: js against the bootstrap distances of
 * a window-sized and a reference-sized sample both drawn from the reference. An empty window has nothing to compare (p-value 1).
 */
const BIN_PRIOR = 0.5;

export function columnDrift(reference: readonly number[], window: readonly number[], opts: { samples?: number; quantile?: number; seed?: number } = {}): ColumnDrift {
  const { samples = 1000, quantile = 0.99, seed = 1 } = opts;
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`samples must be a positive integer, got ${samples}`);
  if (!(quantile > 0 && quantile <= 1)) throw new Error(`quantile must be in (0, 1], got ${quantile}`);
  sameLength(reference, window);
  const n = sum(window);
  if (n === 0) return NOTHING_TO_COMPARE;
  const nRef = sum(reference);
  if (nRef === 0) return NOTHING_TO_COMPARE;
  if (!Number.isInteger(n) || !Number.isInteger(nRef)) throw new Error("reference and window must be counts: the bootstrap draws samples of their sizes");
  const js = jsDistance(reference, window);
  // Half a row added to every bin for the bootstrap only: a bin the reference happened never
  // to fill (a rare category, missing values) would otherwise never be filled by a bootstrap
  // sample either, and any window value there would read as drift (measured: 2 % false alarms
  // at a 0.5 % bin with a 300-row reference, up to 9 % for an unlucky one).
  const draw = multinomial(proportions(reference.map((c) => c + BIN_PRIOR), "reference"));
  const random = seededRandom(seed);
  const a = new Array<number>(reference.length);
  const b = new Array<number>(reference.length);
  const boot = new Float64Array(samples);
  for (let s = 0; s < samples; s++) {
    draw(nRef, random, a);
    draw(n, random, b);
    for (let i = 0; i < a.length; i++) {
      a[i] = a[i]! / nRef;
      b[i] = b[i]! / n;
    }
    boot[s] = jsOfProportions(a, b);
  }
  boot.sort();
  // A bootstrap distance equal to js but for rounding counts as "at least as large" (an identical window gets p-value 1).
  const atLeast = boot.filter((d) => d >= js - 1e-12).length;
  return { js, psi: psi(reference, window), threshold: nearestRank(boot, quantile), pValue: (1 + atLeast) / (samples + 1) };
}

/** Benjamini–Hochberg step-up: which of these hypotheses are rejected (in input order) with the false discovery rate held at alpha. */
export function benjaminiHochberg(pValues: readonly number[], alpha: number): boolean[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  let passing = 0;
  order.forEach(({ p }, rank) => {
    if (p <= ((rank + 1) / m) * alpha) passing = rank + 1;
  });
  const rejected = new Array<boolean>(m).fill(false);
  for (let rank = 0; rank < passing; rank++) rejected[order[rank]!.i] = true;
  return rejected;
}

/** FNV-1a of a column's name: its bootstrap seed, so that adding or reordering columns leaves each column's verdict as it was. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Each column's drift, and whether it drifted: Benjamini–Hochberg at alpha over the columns with a non-empty window
 * (an empty one was never tested, so it neither drifts nor makes the others' bar higher). A bootstrap p-value is never
 * below 1 / (samples + 1) and BH's first bar is alpha / columns, so samples is raised to columns / alpha where it is
 * fewer: with 1000 at alpha 0.01, a lone drifted column among 11 or more could never be flagged.
 */
export function driftedColumns(
  columns: readonly { name: string; reference: readonly number[]; window: readonly number[] }[],
  opts: { alpha?: number; samples?: number; seed?: number } = {},
): { name: string; drift: ColumnDrift; drifted: boolean }[] {
  const { alpha = 0.01, seed = 1 } = opts;
  if (!(alpha > 0 && alpha < 1)) throw new Error(`alpha must be in (0, 1), got ${alpha}`);
  const tested = columns.flatMap((c, i) => (sum(c.window) > 0 && sum(c.reference) > 0 ? [i] : []));
  const samples = Math.max(opts.samples ?? 1000, Math.ceil(tested.length / alpha));
  const drifts = columns.map((c) => columnDrift(c.reference, c.window, { samples, seed: (Math.imul(seed, 0x9e3779b1) ^ nameHash(c.name)) >>> 0 }));
  const rejected = benjaminiHochberg(
    tested.map((i) => drifts[i]!.pValue),
    alpha,
  );
  const drifted = new Array<boolean>(columns.length).fill(false);
  tested.forEach((i, k) => (drifted[i] = rejected[k]!));
  return columns.map((c, i) => ({ name: c.name, drift: drifts[i]!, drifted: drifted[i]! }));
}
