/** Copy and lists of the demo catalogue (kept as compact text, parsed once at load). */

export interface DemoCategory {
  name: string;
  slug: string;
  children: { name: string; slug: string }[];
}

/** Root name | root slug | child name:child slug, ... */
const CATEGORY_LINES = `
Electronics | electronics | Headphones & Audio:headphones-audio, Cameras & Photo:cameras, Smart Home:smart-home
Home & Kitchen | home-kitchen | Cookware:cookware, Coffee & Tea:coffee-tea, Home Decor:home-decor
Sports & Outdoors | sports-outdoors | Camping & Hiking:camping-hiking, Fitness:fitness, Cycling:cycling
Fashion | fashion | Bags & Backpacks:bags, Watches:watches, Shoes:shoes`;

export const DEMO_CATEGORIES: DemoCategory[] = lines(CATEGORY_LINES).map((line) => {
  const [name = '', slug = '', children = ''] = line.split('|').map((s) => s.trim());
  return {
    name,
    slug,
    children: children.split(',').map((c) => {
      const [childName = '', childSlug = ''] = c.split(':').map((s) => s.trim());
      return { name: childName, slug: childSlug };
    }),
  };
});

export const COLOR_HEX: Record<string, string> = Object.fromEntries(
  (
    'Black #25282d, White #f3f3f0, Silver #c3c8ce, Navy #24375f, Red #c8343b, Blue #2f6fd6, Green #2e8b57, ' +
    'Mint #8fd9c0, Pink #f09ab5, Orange #ef8a25, Copper #b8734a, Sage #9cb59a, Cream #eee4cf, Charcoal #3d4148, ' +
    'Sand #d8c3a0, Grey #8d939b, Blush #e8b4b0, Olive #6b7045, Teal #1f9c9a, Purple #7d4fc4, Tan #c19a6b, ' +
    'Gold #d4af37, Beige #d9c8a9'
  )
    .split(', ')
    .map((pair) => pair.split(' ')),
);

/** Colours of products sold in one colour only. */
export const PLAIN_COLORS = '#25282d #3d4148 #c3c8ce #2f6fd6 #c8343b #2e8b57 #b8734a #8a5a3b #f3f3f0'.split(' ');

export const SHIPPING_METHODS = [
  'Standard (5-7 business days)',
  'Expedited (2-3 business days)',
  'Free Economy (8-12 business days)',
  'Express (1-2 business days)',
];

export const DEMO_SHOPPERS =
  'Jane Doe, Marcus Webb, Priya Shah, Tom Okafor, Elena Garcia, Kenji Sato, Sofia Rossi, Liam Murphy, Amara Nwosu, Noah Fischer'
    .split(', ')
    .map((full) => {
      const [firstName = '', lastName = ''] = full.split(' ');
      const [f, l] = [firstName.toLowerCase(), lastName.toLowerCase()];
      return { firstName, lastName, username: `${f}_${l}`, email: `${f}.${l}@example.com` };
    });

/** Rating | comment */
const COMMENT_LINES = `
5 | Exactly as described and really well made.
5 | Love it! Arrived quickly and works perfectly.
5 | Best purchase I have made this year.
5 | Great quality for the price. Would buy again.
5 | Exceeded my expectations, highly recommend.
5 | Bought a second one as a gift.
4 | Very good overall, just a little pricier than I hoped.
4 | Solid product. One star off for the packaging.
4 | Works well, the instructions could be clearer.
4 | Good quality and fast shipping.
4 | Happy with it after a month of daily use.
3 | It is okay. Does the job but nothing special.
3 | Decent, but the colour is a bit different from the photos.
3 | Average quality for the price.
3 | Fine for occasional use.
2 | Stopped working properly after a few weeks.
2 | Smaller than expected and feels a bit cheap.
2 | Shipping took much longer than promised.
1 | Arrived damaged and the replacement took weeks.
1 | Did not work out of the box, so I returned it.
1 | Not as described at all.`;

export const REVIEW_COMMENTS: Record<number, string[]> = {};
for (const line of lines(COMMENT_LINES)) {
  const [rating = '', comment = ''] = line.split('|').map((s) => s.trim());
  (REVIEW_COMMENTS[Number(rating)] ??= []).push(comment);
}

/** Description openings: {name} and {brand} are filled in (HTML-escaped). */
export const INTROS = [
  'Meet the <strong>{name}</strong> by {brand}: thoughtfully designed, carefully built and ready for daily use.',
  '{brand} made the <strong>{name}</strong> for people who want gear that simply works, day after day.',
  'Upgrade your routine with the <strong>{name}</strong>. {brand} focused on the details that matter most.',
  'The <strong>{name}</strong> brings together practical design from {brand} and materials chosen to last for years.',
];

export const ROOT_NOTES: Record<string, string> = {
  electronics: 'Updates arrive through the free companion app, and every unit is tested before it ships.',
  'home-kitchen': 'It is easy to clean, looks good on display and comes with a two-year warranty.',
  'sports-outdoors': 'Our team tested it outdoors through rain, mud and long weekends away.',
  fashion: 'Not quite right? Returns are free within 30 days.',
};

export const CLOSERS = [
  'Ships in recyclable packaging from our partner warehouse.',
  'Questions before you buy? Message our support team and we will help you choose.',
  'Covered by the manufacturer warranty; keep your order number as proof of purchase.',
];

/** The non-empty lines of a text block. */
export function lines(block: string): string[] {
  return block
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
