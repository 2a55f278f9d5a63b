/** The p-th percentile of `values` (nearest rank, p in 0..100); NaN for none. */
export function pct(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
