/**
 * The words a typo search was answered with: each word of the keyword replaced by the most similar
 * word of the products found (trigram similarity, as pg_trgm measures it), so the page can say
 * "Showing results for headphones".
 */

/** A word's trigrams as pg_trgm makes them: lower case, two spaces before and one after. */
export function trigrams(word: string): Set<string> {
  const padded = `  ${word.toLowerCase()} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/** Shared trigrams over all trigrams of the two words (0 to 1). */
export function similarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  const all = ta.size + tb.size - shared;
  return all === 0 ? 0 : shared / all;
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The keyword as the found products spell it: each word becomes the closest word of `names` (when it is
 * at least `threshold` similar); undefined when nothing changes.
 */
export function suggestedKeyword(keyword: string, names: readonly string[], threshold = 0.3): string | undefined {
  const candidates = [...new Set(names.flatMap(wordsOf))];
  const words = wordsOf(keyword);
  if (words.length === 0 || candidates.length === 0) return undefined;
  const fixed = words.map((w) => {
    let best = w;
    let score = 0;
    for (const c of candidates) {
      const s = similarity(w, c);
      if (s >= threshold && s > score) {
        best = c;
        score = s;
      }
    }
    return best;
  });
  const suggestion = fixed.join(' ');
  return suggestion === words.join(' ') ? undefined : suggestion;
}
