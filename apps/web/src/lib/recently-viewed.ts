/** What the browser keeps of a product the shopper opened: enough to link back to it, not its price or stock. */
export interface ViewedProduct {
  _id: string;
  slug: string;
  name: string;
  image: string;
}

export const RECENTLY_VIEWED_KEY = 'recentlyViewed';
export const RECENTLY_VIEWED_MAX = 8;

/** `product` first (the last product viewed), without its earlier visit, at most RECENTLY_VIEWED_MAX in all. */
export function rememberViewed(list: ViewedProduct[], product: ViewedProduct): ViewedProduct[] {
  return [product, ...list.filter((p) => p._id !== product._id)].slice(0, RECENTLY_VIEWED_MAX);
}

const isText = (v: unknown): v is string => typeof v === 'string';

/** What storage holds, with anything malformed dropped. */
export function parseViewed(raw: unknown): ViewedProduct[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((p): p is ViewedProduct => {
      const o = p as Record<string, unknown> | null;
      return !!o && isText(o._id) && isText(o.slug) && o.slug !== '' && isText(o.name) && isText(o.image);
    })
    .map(({ _id, slug, name, image }) => ({ _id, slug, name, image }))
    .slice(0, RECENTLY_VIEWED_MAX);
}

/** The products viewed last, as stored (newest first). */
export function readViewed(): ViewedProduct[] {
  try {
    return parseViewed(JSON.parse(localStorage.getItem(RECENTLY_VIEWED_KEY) ?? 'null'));
  } catch {
    return [];
  }
}

/** Keeps `product` as the last product viewed. */
export function rememberProductViewed(product: ViewedProduct): void {
  try {
    localStorage.setItem(RECENTLY_VIEWED_KEY, JSON.stringify(rememberViewed(readViewed(), product)));
  } catch {
    // storage full or blocked: nothing is remembered this visit
  }
}
