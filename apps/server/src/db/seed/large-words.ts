/** Vocabulary for synthetic catalogues (seed CLI): realistic words so full-text search has something to find. */
import { lines } from './demo-content.ts';
import { type IconName, isIconName } from './demo-icons.ts';

export interface Vocabulary {
  nouns: [string, IconName][];
  adjectives: string[];
  extras: string[];
}

/** category slug | noun:drawing, ... | adjectives, ... | extras, ... */
const VOCABULARY_LINES = `
headphones-audio | Headphones:headphones, Earbuds:earbuds, Bluetooth Speaker:speaker, Soundbar:speaker, Gaming Headset:headphones | Wireless, Noise-Cancelling, Studio, Portable, Waterproof, Bass-Boosted, Hi-Res, Over-Ear, Compact | Charging Case, Built-In Microphone, Carry Pouch, 40-Hour Battery, Multipoint Pairing, Transparency Mode
cameras | Mirrorless Camera:camera, Action Camera:camera, Zoom Lens:lens, Prime Lens:lens, Tripod:tripod, Instant Camera:camera | 4K, Full-Frame, Weather-Sealed, Lightweight, Vlogging, Travel, Professional, Compact | Image Stabilisation, Flip Screen, Spare Battery, Lens Hood, Carbon Legs, Remote Shutter
smart-home | Smart Bulb:bulb, Smart Plug:plug, Security Camera:securitycam, Thermostat:puck, Robot Vacuum:robot, Video Doorbell:securitycam | Wi-Fi, Voice-Controlled, Energy-Saving, Outdoor, Indoor, Dimmable, Motion-Sensing, Hub-Free | Night Vision, Energy Monitoring, Two-Way Audio, Scheduling, Geofencing, Local Storage
cookware | Frying Pan:pan, Dutch Oven:pot, Saucepan:pot, Chef Knife:knife, Cutting Board:board, Wok:pan | Stainless Steel, Cast Iron, Nonstick, Tri-Ply, Carbon Steel, Enamelled, Ceramic, Induction-Ready | Glass Lid, Stay-Cool Handle, Oven Safe, Dishwasher Safe, Pour Spouts, Gift Box
coffee-tea | Electric Kettle:kettle, Espresso Machine:espresso, Coffee Grinder:bottle, Travel Mug:mug, Tea Infuser:bottle, Pour-Over Set:mug | Gooseneck, Programmable, Double-Wall, Burr, Insulated, Barista, Cordless, Glass | Temperature Control, Milk Frother, Keep-Warm, Leak-Proof Lid, Timer, 40 Grind Settings
home-decor | Ceramic Vase:vase, Floor Lamp:lamp, Scented Candle:candle, Throw Blanket:throw, Wall Mirror:mirror, Storage Basket:basket | Handmade, Minimalist, Rustic, Scandinavian, Boho, Vintage, Modern, Woven | Brass Frame, Marble Base, Soy Wax, Chunky Knit, Set of 3, Matte Finish
camping-hiking | Backpacking Tent:tent, Sleeping Bag:roll, Camping Lantern:lantern, Water Bottle:bottle, Trekking Poles:tripod, Camp Stove:pot | Ultralight, Waterproof, 3-Season, Insulated, Rechargeable, Packable, Freestanding, Rugged | Rainfly, Compression Sack, USB Charging, Carry Loop, Cork Grips, Piezo Ignition
fitness | Dumbbells:dumbbell, Yoga Mat:roll, Resistance Bands:rope, Jump Rope:rope, Foam Roller:roll, Kettlebell:kettlebell | Adjustable, Non-Slip, Heavy-Duty, Eco-Friendly, Weighted, High-Density, Cast Iron, Home Gym | Door Anchor, Carry Strap, Workout Guide, Storage Rack, Alignment Lines, Counter App
cycling | Bike Helmet:helmet, Road Bike:bike, Bike Light Set:lamp, Floor Pump:bottle, Multi-Tool:knife, Indoor Trainer:bike | Aero, Commuter, Carbon, Aluminium, Rechargeable, Gravel, Lightweight, Smart | MIPS Liner, Rear Light, Hydraulic Disc Brakes, Pressure Gauge, Chain Breaker, Zwift Ready
bags | Backpack:backpack, Tote Bag:bag, Crossbody Bag:bag, Carry-On Suitcase:suitcase, Duffel Bag:bag, Laptop Bag:backpack | Waterproof, Leather, Waxed Canvas, Anti-Theft, Hard-Shell, Packable, Commuter, Vegan Leather | Laptop Sleeve, Spinner Wheels, TSA Lock, Hidden Pocket, Shoulder Strap, USB Port
watches | Automatic Watch:watch, Smartwatch:smartwatch, Dress Watch:watch, Dive Watch:watch, Fitness Tracker:smartwatch, Chronograph:watch | Stainless Steel, Minimalist, GPS, Solar, Sapphire, Titanium, Classic, Slim | Mesh Strap, Heart-Rate Tracking, Leather Strap, 100 m Water Resistance, Sleep Tracking, Date Window
shoes | Running Shoes:sneaker, Hiking Boots:boot, Sneakers:sneaker, Slip-On Shoes:sneaker, Chelsea Boots:boot, Trail Runners:sneaker | Lightweight, Waterproof, Leather, Wool, Breathable, Cushioned, Everyday, Vegan | Memory Foam Insole, Vibram Sole, Reflective Details, Wide Fit, Recycled Laces, Gore-Tex Lining`;

const list = (s: string | undefined) => (s ?? '').split(',').map((w) => w.trim());

export const VOCABULARY: Record<string, Vocabulary> = Object.fromEntries(
  lines(VOCABULARY_LINES).map((line) => {
    const [slug = '', nouns, adjectives, extras] = line.split('|').map((s) => s.trim());
    const pairs = list(nouns).map((n) => {
      const [noun = '', icon = ''] = n.split(':');
      if (!isIconName(icon)) throw new Error(`unknown drawing ${icon}`);
      return [noun, icon] as [string, IconName];
    });
    return [slug, { nouns: pairs, adjectives: list(adjectives), extras: list(extras) }];
  }),
);

export const BRANDS = list(
  'Sonivo, Auralite, Optera, Kestrel, Nestly, Vigilo, Ferrum & Co., Verdana, Kiru, Oakhouse, Brewhaus, Caffora, ' +
    'Lumen Loft, Ridgeway, Northpeak, Ironform, Lotusflex, Velocita, Spokewise, Packwell, Mirela, Tempora, Strideon, ' +
    'Voltix, Halden, Brightwell, Marlowe, Cobalt Goods, Juniper Lane, Atlas Supply',
);
export const MODELS = list('Pro, Max, Lite, Mini, Plus, Air, One, Neo, X, S, Go, Elite, Classic, Sport');
export const COLOR_NAMES = list('Black, White, Red, Blue, Navy, Green, Grey, Silver, Orange, Pink, Teal, Olive');
export const MATERIALS = list(
  'recycled aluminium, stainless steel, premium leather, ripstop nylon, solid oak, borosilicate glass, organic cotton, carbon fibre',
);
/** Description sentences: {material}, {adj}, {extra} and {brand} are filled in. */
export const SENTENCES = lines(`
Built from {material} and tested for everyday wear.
It is a favourite with customers who want {adj} gear at a fair price.
The {extra} makes it easy to take anywhere.
Designed in-house and made in small batches for consistent quality.
A {adj} option for gifts, travel and daily routines.
Every order ships in recyclable packaging.
Pair it with other {brand} products for a matching set.
Backed by a two-year warranty and responsive support.`);

export const FIRST_NAMES = list(
  'Olivia, Liam, Emma, Noah, Ava, Lucas, Mia, Ethan, Isla, Mateo, Zara, Leo, Chloe, Arjun, Hana, Omar, Grace, Felix, Nina, Diego',
);
export const LAST_NAMES = list(
  'Smith, Johnson, Brown, Garcia, Miller, Davis, Lopez, Wilson, Anderson, Thomas, Moore, Martin, Lee, Clark, Young, Patel, Kim, Nguyen, Walker, Hall',
);
export const STREETS = list(
  'Maple Ave, Oak St, Cedar Ln, Pine Rd, Elm St, Lakeview Dr, Sunset Blvd, Park Ave, River Rd, Hillcrest Way',
);
/** City, state, first three digits of its ZIP codes. */
export const CITIES = list(
  'Austin TX 787, Denver CO 802, Portland OR 972, Columbus OH 432, Raleigh NC 276, Phoenix AZ 850, Madison WI 537, Boston MA 021, Nashville TN 372, Sacramento CA 958',
).map((c) => {
  const parts = c.split(' ');
  return [parts.slice(0, -2).join(' '), parts.at(-2) ?? '', parts.at(-1) ?? ''] as const;
});
