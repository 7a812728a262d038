/** A price filter for a query string that the server accepts (a number from 0), else left out rather than refused. */
export function priceParam(value: string): number | undefined {
  const v = value.trim();
  if (!v) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
