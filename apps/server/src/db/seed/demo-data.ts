/**
 * The demo catalogue as pure data: categories, products, shoppers and their reviews.
 * Built from a seeded PRNG, so the same catalogue comes out every time (only ids and dates move).
 */
import { htmlToText, slugify } from '@store/shared';
import { type IconName, isIconName } from './demo-icons.ts';
import {
  CLOSERS,
  COLOR_HEX,
  DEMO_CATEGORIES,
  DEMO_SHOPPERS,
  type DemoCategory,
  INTROS,
  lines,
  PLAIN_COLORS,
  REVIEW_COMMENTS,
  ROOT_NOTES,
  SHIPPING_METHODS,
} from './demo-content.ts';
import { PRODUCT_LINES } from './demo-products.ts';
import { createRng, type Rng } from './random.ts';

export { COLOR_HEX, DEMO_CATEGORIES, DEMO_SHOPPERS, REVIEW_COMMENTS, SHIPPING_METHODS } from './demo-content.ts';
export type { DemoCategory } from './demo-content.ts';

export interface DemoColor {
  name: string;
  hex: string;
  priceCents: number | null;
}
export interface DemoShot {
  base: string;
  view: 0 | 1 | 2 | 3;
  color: number;
}
export interface DemoReview {
  shopper: number;
  rating: number;
  comment: string;
  ageDays: number;
  verified: boolean;
}

export interface DemoProduct {
  name: string;
  brand: string;
  categorySlug: string;
  rootSlug: string;
  priceCents: number;
  icon: IconName;
  features: { key: string; detail: string }[];
  colors: DemoColor[];
  video: string;
  slug: string;
  imageFolderName: string;
  countInStock: number;
  shippingMethod: string;
  purchaseLink: string;
  description: string;
  descriptionText: string;
  hue: number;
  plainHex: string;
  shots: DemoShot[];
  ageDays: number;
  reviews: DemoReview[];
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const VIEW_NAMES = ['main', 'angle', 'detail', 'lifestyle'] as const;

/** Cuts a slug to `max` characters at a word boundary where it can. */
function cutSlug(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const dash = cut.lastIndexOf('-');
  return (dash > max / 2 ? cut.slice(0, dash) : cut).replace(/-+$/, '');
}

function uniqueName(base: string, taken: Set<string>, max: number): string {
  let candidate = cutSlug(base, max);
  for (let n = 2; taken.has(candidate); n++) candidate = `${cutSlug(base, max - String(n).length - 1)}-${n}`;
  taken.add(candidate);
  return candidate;
}

/** The colour a product's name states ('Classic White Leather Sneakers'), if any. */
function namedColor(name: string): string | undefined {
  const word = name.split(/[\s,]+/).find((w) => COLOR_HEX[w]);
  return word ? COLOR_HEX[word] : undefined;
}

function parseLine(line: string, categorySlug: string) {
  const [name, brand, price, icon, features, opts = ''] = line.split('|').map((s) => s.trim());
  if (!name || !brand || !price || !icon || !features || !isIconName(icon))
    throw new Error(`bad demo product line: ${line}`);
  const options = new Map(
    opts
      .split(/\s+/)
      .filter(Boolean)
      .map((o) => [o.split('=')[0] ?? o, o.split('=')[1] ?? ''] as const),
  );
  const colors = (options.get('colors') ?? '')
    .split(',')
    .filter(Boolean)
    .map((c) => {
      const [colorName = '', own] = c.split(':');
      const hex = COLOR_HEX[colorName];
      if (!hex) throw new Error(`unknown demo colour ${colorName}`);
      return { name: colorName, hex, priceCents: own ? Math.round(Number(own) * 100) : null };
    });
  return {
    name,
    brand,
    categorySlug,
    icon,
    colors,
    priceCents: Math.round(Number(price) * 100),
    features: features.split(';').map((f) => {
      const [key = '', ...rest] = f.split(':');
      return { key: key.trim(), detail: rest.join(':').trim() };
    }),
    outOfStock: options.has('oos'),
    video: options.get('video') ?? '',
  };
}

function describe(p: ReturnType<typeof parseLine>, rootSlug: string, rng: Rng): string {
  const fill = (t: string) => t.replace('{name}', escapeHtml(p.name)).replace('{brand}', escapeHtml(p.brand));
  const items = p.features
    .map((f) => `<li><strong>${escapeHtml(f.key)}:</strong> ${escapeHtml(f.detail)}</li>`)
    .join('');
  const colorNames = p.colors.map((c) => c.name);
  const colors = colorNames.length
    ? `<p>Available in ${colorNames.slice(0, -1).join(', ')} and ${colorNames[colorNames.length - 1]}.</p>`
    : '';
  return `<p>${fill(rng.pick(INTROS))} ${ROOT_NOTES[rootSlug] ?? ''}</p><ul>${items}</ul>${colors}<p>${rng.pick(CLOSERS)}</p>`;
}

function planReviews(rng: Rng): DemoReview[] {
  if (rng.chance(0.17)) return [];
  const quality = 3.1 + rng.next() * 1.8;
  return rng
    .sample(
      DEMO_SHOPPERS.map((_, i) => i),
      rng.int(1, 6),
    )
    .map((shopper) => {
      const rating = Math.min(5, Math.max(1, Math.round(quality + (rng.next() - 0.5) * 2.4)));
      return {
        shopper,
        rating,
        comment: rng.pick(REVIEW_COMMENTS[rating] ?? []),
        ageDays: rng.next(),
        verified: rng.chance(0.6),
      };
    });
}

/** The whole demo catalogue (pure: no database, no files). */
export function buildDemoCatalogue(seed = 20240611): { categories: DemoCategory[]; products: DemoProduct[] } {
  const rng = createRng(seed);
  const rootOf = new Map(
    DEMO_CATEGORIES.flatMap((r) => [[r.slug, r.slug], ...r.children.map((c) => [c.slug, r.slug] as const)]),
  );
  const slugs = new Set<string>();
  const folders = new Set<string>();
  const products: DemoProduct[] = [];
  for (const [categorySlug, block] of Object.entries(PRODUCT_LINES)) {
    const rootSlug = rootOf.get(categorySlug);
    if (!rootSlug) throw new Error(`unknown demo category ${categorySlug}`);
    for (const line of lines(block)) {
      const p = parseLine(line, categorySlug);
      // slugify cuts at 80 characters, possibly mid-word: 79 makes cutSlug re-cut such slugs at a hyphen
      const slug = uniqueName(slugify(p.name), slugs, 79);
      const imageFolderName = uniqueName(slug, folders, 60);
      const description = describe(p, rootSlug, rng);
      const shots: DemoShot[] = p.colors.length
        ? p.colors.map((c, i) => ({ base: `main-${slugify(c.name)}`, view: 0 as const, color: i }))
        : [{ base: VIEW_NAMES[0], view: 0, color: 0 }];
      // 2-4 images each (a colour variant's image is its colour in the gallery); kept few: they dominate the seed time
      if (!p.colors.length) {
        const views = rng.pick([[1], [2], [1], [2], [3], [1, 2], [2, 3], [1, 2, 3]] as DemoShot['view'][][]);
        for (const view of views) shots.push({ base: VIEW_NAMES[view], view, color: 0 });
      }
      const ageDays = rng.next() * 90;
      products.push({
        ...p,
        rootSlug,
        slug,
        imageFolderName,
        description,
        descriptionText: htmlToText(description),
        shots,
        ageDays,
        countInStock: p.outOfStock ? 0 : rng.int(3, 60),
        shippingMethod: rng.pick(SHIPPING_METHODS),
        purchaseLink: `https://example.com/wholesale/${slugify(p.brand)}/${slug}`,
        hue: Math.round((products.length * 137.508) % 360),
        plainHex: namedColor(p.name) ?? rng.pick(PLAIN_COLORS),
        reviews: planReviews(rng).map((r) => ({ ...r, ageDays: r.ageDays * ageDays })),
      });
    }
  }
  return { categories: DEMO_CATEGORIES, products };
}
