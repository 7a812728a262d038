/**
 * Simple product drawings for the demo images: each draws into a 400x400 box in the colour `c`.
 * Shading is done with translucent black and white so every colour variant reads well.
 */
const D = 'rgba(0,0,0,0.28)';
const L = 'rgba(255,255,255,0.45)';
const M = '#3b4048';
const S = '#d3d7dc';
const W = '#f7f7f5';

type Icon = (c: string) => string;

export const ICONS = {
  headphones: (c) =>
    `<path d="M88 240 V190 A112 112 0 0 1 312 190 V240" fill="none" stroke="${c}" stroke-width="26" stroke-linecap="round"/><path d="M88 240 V190 A112 112 0 0 1 312 190 V240" fill="none" stroke="${D}" stroke-width="8"/><rect x="56" y="200" width="76" height="128" rx="32" fill="${c}"/><rect x="268" y="200" width="76" height="128" rx="32" fill="${c}"/><rect x="112" y="214" width="28" height="100" rx="13" fill="${D}"/><rect x="260" y="214" width="28" height="100" rx="13" fill="${D}"/><rect x="70" y="214" width="14" height="60" rx="7" fill="${L}"/>`,
  earbuds: (c) =>
    `<rect x="96" y="220" width="208" height="124" rx="58" fill="${c}"/><path d="M96 268 H304" stroke="${D}" stroke-width="5"/><circle cx="200" cy="306" r="7" fill="${L}"/><circle cx="150" cy="128" r="42" fill="${c}"/><rect x="138" y="140" width="26" height="78" rx="13" fill="${c}"/><circle cx="150" cy="128" r="18" fill="${D}"/><circle cx="250" cy="128" r="42" fill="${c}"/><rect x="238" y="140" width="26" height="78" rx="13" fill="${c}"/><circle cx="250" cy="128" r="18" fill="${D}"/>`,
  speaker: (c) =>
    `<rect x="70" y="110" width="260" height="200" rx="60" fill="${c}"/><circle cx="150" cy="210" r="52" fill="${D}"/><circle cx="150" cy="210" r="22" fill="${L}"/><circle cx="255" cy="210" r="40" fill="${D}"/><circle cx="255" cy="210" r="15" fill="${L}"/><rect x="160" y="122" width="80" height="10" rx="5" fill="${L}"/>`,
  camera: (c) =>
    `<rect x="120" y="104" width="84" height="40" rx="10" fill="${c}"/><rect x="60" y="130" width="280" height="180" rx="28" fill="${c}"/><rect x="60" y="150" width="280" height="34" fill="${D}"/><circle cx="200" cy="226" r="78" fill="${M}"/><circle cx="200" cy="226" r="56" fill="#1d2127"/><circle cx="200" cy="226" r="30" fill="#4b6ea8"/><circle cx="186" cy="212" r="9" fill="${L}"/><rect x="282" y="148" width="34" height="20" rx="5" fill="${L}"/>`,
  lens: (c) =>
    `<rect x="110" y="90" width="180" height="230" rx="24" fill="${c}"/><rect x="110" y="150" width="180" height="40" fill="${D}"/><rect x="110" y="230" width="180" height="14" fill="${L}"/><ellipse cx="200" cy="92" rx="90" ry="26" fill="${M}"/><ellipse cx="200" cy="92" rx="62" ry="16" fill="#4b6ea8"/>`,
  tripod: (c) =>
    `<rect x="150" y="70" width="100" height="40" rx="12" fill="${M}"/><rect x="186" y="106" width="28" height="90" fill="${c}"/><path d="M200 190 L90 340 M200 190 L310 340 M200 190 L200 350" stroke="${c}" stroke-width="20" stroke-linecap="round"/><path d="M200 190 L90 340 M200 190 L310 340" stroke="${D}" stroke-width="6"/><circle cx="200" cy="196" r="22" fill="${M}"/>`,
  bulb: (c) =>
    `<circle cx="200" cy="160" r="104" fill="${c}"/><circle cx="168" cy="128" r="32" fill="${L}"/><path d="M146 240 H254 L240 286 H160 Z" fill="${c}"/><rect x="156" y="284" width="88" height="60" rx="10" fill="${S}"/><path d="M156 302 H244 M156 322 H244" stroke="${D}" stroke-width="6"/>`,
  plug: (c) =>
    `<rect x="100" y="90" width="200" height="230" rx="42" fill="${c}"/><circle cx="200" cy="190" r="62" fill="${D}"/><rect x="172" y="176" width="14" height="32" rx="6" fill="${M}"/><rect x="214" y="176" width="14" height="32" rx="6" fill="${M}"/><circle cx="200" cy="276" r="12" fill="#3ecf8e"/><rect x="118" y="104" width="20" height="120" rx="10" fill="${L}"/>`,
  puck: (c) =>
    `<circle cx="200" cy="200" r="150" fill="${c}"/><circle cx="200" cy="200" r="150" fill="none" stroke="${D}" stroke-width="14"/><circle cx="200" cy="200" r="104" fill="#1d2127"/><text x="200" y="222" font-family="DejaVu Sans, sans-serif" font-size="64" fill="#7fd3ff" text-anchor="middle">21°</text><path d="M110 120 A130 130 0 0 1 200 70" fill="none" stroke="${L}" stroke-width="10" stroke-linecap="round"/>`,
  robot: (c) =>
    `<circle cx="200" cy="210" r="150" fill="${c}"/><circle cx="200" cy="210" r="150" fill="none" stroke="${D}" stroke-width="14"/><circle cx="200" cy="160" r="40" fill="${M}"/><circle cx="200" cy="160" r="16" fill="#7fd3ff"/><path d="M100 280 A120 120 0 0 0 300 280" fill="none" stroke="${L}" stroke-width="10" stroke-linecap="round"/><circle cx="150" cy="250" r="8" fill="#3ecf8e"/>`,
  securitycam: (c) =>
    `<rect x="170" y="250" width="60" height="70" fill="${c}"/><ellipse cx="200" cy="330" rx="110" ry="28" fill="${c}"/><circle cx="200" cy="170" r="110" fill="${c}"/><circle cx="200" cy="170" r="64" fill="#1d2127"/><circle cx="200" cy="170" r="30" fill="#4b6ea8"/><circle cx="186" cy="156" r="9" fill="${L}"/><circle cx="200" cy="84" r="7" fill="#e0483e"/>`,
  pan: (c) =>
    `<rect x="268" y="188" width="118" height="30" rx="15" fill="${M}"/><ellipse cx="160" cy="212" rx="140" ry="120" fill="${c}"/><ellipse cx="160" cy="206" rx="116" ry="96" fill="${D}"/><ellipse cx="130" cy="180" rx="40" ry="24" fill="${L}"/>`,
  pot: (c) =>
    `<ellipse cx="200" cy="130" rx="130" ry="30" fill="${c}"/><rect x="186" y="86" width="28" height="30" rx="8" fill="${M}"/><path d="M80 150 H320 V290 Q320 330 280 330 H120 Q80 330 80 290 Z" fill="${c}"/><rect x="40" y="170" width="50" height="26" rx="13" fill="${c}"/><rect x="310" y="170" width="50" height="26" rx="13" fill="${c}"/><rect x="80" y="150" width="240" height="22" fill="${D}"/><rect x="100" y="190" width="22" height="110" rx="11" fill="${L}"/>`,
  knife: (c) =>
    `<path d="M40 250 L270 160 Q320 150 340 190 L120 270 Z" fill="${S}"/><path d="M40 250 L270 160 Q300 154 320 172 L60 258 Z" fill="${L}"/><rect x="250" y="200" width="130" height="40" rx="16" transform="rotate(-22 315 220)" fill="${c}"/>`,
  board: (c) =>
    `<rect x="70" y="100" width="260" height="210" rx="26" fill="${c}"/><path d="M70 150 H330 M70 200 H330 M70 250 H330 M130 100 V310 M200 100 V310 M270 100 V310" stroke="${D}" stroke-width="5"/><circle cx="300" cy="130" r="12" fill="${D}"/>`,
  kettle: (c) =>
    `<path d="M110 320 L130 150 Q200 110 270 150 L290 320 Z" fill="${c}"/><path d="M130 170 Q60 160 40 90" fill="none" stroke="${c}" stroke-width="16" stroke-linecap="round"/><path d="M270 170 Q350 190 330 280" fill="none" stroke="${M}" stroke-width="22" stroke-linecap="round"/><rect x="100" y="316" width="200" height="20" rx="8" fill="${M}"/><rect x="150" y="170" width="18" height="120" rx="9" fill="${L}"/>`,
  mug: (c) =>
    `<path d="M100 140 H280 V290 Q280 330 240 330 H140 Q100 330 100 290 Z" fill="${c}"/><path d="M280 180 Q350 180 340 240 Q330 280 280 280" fill="none" stroke="${c}" stroke-width="22"/><rect x="100" y="140" width="180" height="20" fill="${D}"/><path d="M150 110 Q140 80 160 60 M200 110 Q190 80 210 60 M250 110 Q240 80 260 60" fill="none" stroke="${L}" stroke-width="8" stroke-linecap="round"/>`,
  espresso: (c) =>
    `<rect x="80" y="80" width="240" height="80" rx="18" fill="${c}"/><rect x="80" y="150" width="60" height="180" fill="${c}"/><rect x="80" y="316" width="240" height="24" rx="8" fill="${c}"/><rect x="140" y="160" width="180" height="30" fill="${D}"/><rect x="180" y="188" width="60" height="22" fill="${M}"/><path d="M180 250 H240 V296 Q240 306 230 306 H190 Q180 306 180 296 Z" fill="${W}"/><circle cx="280" cy="118" r="18" fill="${S}"/>`,
  bottle: (c) =>
    `<rect x="165" y="50" width="70" height="44" rx="12" fill="${M}"/><path d="M150 100 Q150 90 160 90 H240 Q250 90 250 100 L262 140 V330 Q262 350 242 350 H158 Q138 350 138 330 V140 Z" fill="${c}"/><rect x="138" y="200" width="124" height="60" fill="${D}"/><rect x="156" y="150" width="16" height="170" rx="8" fill="${L}"/>`,
  vase: (c) =>
    `<path d="M160 60 H240 V100 Q320 150 300 250 Q285 330 230 345 H170 Q115 330 100 250 Q80 150 160 100 Z" fill="${c}"/><path d="M150 70 H250" stroke="${D}" stroke-width="10"/><path d="M130 160 Q120 230 150 300" fill="none" stroke="${L}" stroke-width="12" stroke-linecap="round"/>`,
  lamp: (c) =>
    `<path d="M130 60 H270 L320 170 H80 Z" fill="${c}"/><path d="M80 170 H320" stroke="${D}" stroke-width="8"/><rect x="192" y="170" width="16" height="150" fill="${M}"/><ellipse cx="200" cy="330" rx="80" ry="20" fill="${M}"/><ellipse cx="200" cy="180" rx="60" ry="10" fill="#fff3b0"/>`,
  candle: (c) =>
    `<rect x="110" y="150" width="180" height="190" rx="20" fill="${W}"/><rect x="120" y="160" width="160" height="170" rx="16" fill="${c}"/><rect x="150" y="210" width="100" height="60" rx="6" fill="${W}"/><path d="M200 150 V120" stroke="${M}" stroke-width="5"/><path d="M200 60 Q225 95 200 120 Q175 95 200 60 Z" fill="#ffb43b"/>`,
  roll: (c) =>
    `<rect x="70" y="150" width="260" height="120" fill="${c}"/><ellipse cx="330" cy="210" rx="34" ry="60" fill="${c}"/><ellipse cx="330" cy="210" rx="34" ry="60" fill="${D}"/><ellipse cx="330" cy="210" rx="14" ry="26" fill="${c}"/><ellipse cx="70" cy="210" rx="34" ry="60" fill="${c}"/><rect x="70" y="166" width="260" height="14" fill="${L}"/><path d="M130 150 V270 M270 150 V270" stroke="${D}" stroke-width="10"/>`,
  throw: (c) =>
    `<path d="M70 120 H330 V300 Q200 340 70 300 Z" fill="${c}"/><path d="M70 160 H330 M70 200 H330 M70 240 H330" stroke="${D}" stroke-width="10"/><path d="M90 310 V340 M130 320 V350 M170 326 V356 M210 328 V358 M250 324 V354 M290 316 V346" stroke="${c}" stroke-width="8"/>`,
  mirror: (c) =>
    `<circle cx="200" cy="200" r="150" fill="${c}"/><circle cx="200" cy="200" r="128" fill="#cfe3f0"/><path d="M120 150 L180 90 M130 200 L230 100" stroke="${W}" stroke-width="16" stroke-linecap="round"/><circle cx="200" cy="42" r="12" fill="${M}"/>`,
  basket: (c) =>
    `<path d="M70 150 H330 L300 330 H100 Z" fill="${c}"/><path d="M80 190 H320 M86 230 H314 M92 270 H308 M98 310 H302" stroke="${D}" stroke-width="8"/><path d="M130 150 Q130 80 200 80 Q270 80 270 150" fill="none" stroke="${M}" stroke-width="12"/>`,
  tent: (c) =>
    `<path d="M200 70 L360 330 H40 Z" fill="${c}"/><path d="M200 70 L280 330 H200 Z" fill="${D}"/><path d="M200 150 L250 330 H150 Z" fill="#1d2127"/><path d="M200 70 V40" stroke="${M}" stroke-width="8"/><path d="M40 330 H360" stroke="${M}" stroke-width="8"/>`,
  lantern: (c) =>
    `<path d="M150 80 Q150 40 200 40 Q250 40 250 80" fill="none" stroke="${M}" stroke-width="12"/><rect x="130" y="80" width="140" height="40" rx="10" fill="${c}"/><rect x="140" y="120" width="120" height="160" rx="10" fill="#fff3b0"/><path d="M165 120 V280 M235 120 V280" stroke="${c}" stroke-width="12"/><rect x="120" y="280" width="160" height="50" rx="12" fill="${c}"/>`,
  dumbbell: (c) =>
    `<rect x="110" y="188" width="180" height="24" rx="12" fill="${S}"/><rect x="40" y="120" width="36" height="160" rx="12" fill="${c}"/><rect x="76" y="140" width="36" height="120" rx="12" fill="${c}"/><rect x="324" y="120" width="36" height="160" rx="12" fill="${c}"/><rect x="288" y="140" width="36" height="120" rx="12" fill="${c}"/><rect x="46" y="130" width="10" height="140" rx="5" fill="${L}"/>`,
  kettlebell: (c) =>
    `<path d="M140 170 Q130 70 200 70 Q270 70 260 170" fill="none" stroke="${c}" stroke-width="34"/><circle cx="200" cy="250" r="110" fill="${c}"/><circle cx="160" cy="210" r="30" fill="${L}"/><rect x="150" y="318" width="100" height="24" rx="10" fill="${D}"/>`,
  rope: (c) =>
    `<path d="M110 90 Q20 260 200 320 Q380 260 290 90" fill="none" stroke="${c}" stroke-width="12"/><rect x="90" y="50" width="40" height="90" rx="18" fill="${M}"/><rect x="270" y="50" width="40" height="90" rx="18" fill="${M}"/><rect x="96" y="60" width="10" height="70" rx="5" fill="${L}"/>`,
  helmet: (c) =>
    `<path d="M50 250 Q50 80 210 80 Q360 80 360 240 Q360 270 330 270 H80 Q50 270 50 250 Z" fill="${c}"/><path d="M120 110 Q180 100 190 250 M220 90 Q270 110 270 250" fill="none" stroke="${D}" stroke-width="16"/><rect x="60" y="262" width="280" height="18" rx="9" fill="${M}"/><rect x="300" y="220" width="40" height="18" rx="6" fill="#e0483e"/>`,
  bike: (c) =>
    `<circle cx="100" cy="260" r="70" fill="none" stroke="${M}" stroke-width="14"/><circle cx="300" cy="260" r="70" fill="none" stroke="${M}" stroke-width="14"/><path d="M100 260 L170 150 H290 L300 260 M170 150 L210 260 L290 150 M210 260 H100 M160 120 H200 M290 150 L280 110 H310" fill="none" stroke="${c}" stroke-width="14" stroke-linejoin="round" stroke-linecap="round"/>`,
  backpack: (c) =>
    `<path d="M160 70 Q160 40 200 40 Q240 40 240 70" fill="none" stroke="${M}" stroke-width="12"/><rect x="100" y="70" width="200" height="270" rx="60" fill="${c}"/><rect x="130" y="210" width="140" height="100" rx="22" fill="${D}"/><path d="M140 210 H260" stroke="${L}" stroke-width="6"/><rect x="116" y="90" width="16" height="110" rx="8" fill="${L}"/>`,
  bag: (c) =>
    `<path d="M140 150 Q140 60 200 60 Q260 60 260 150" fill="none" stroke="${c}" stroke-width="16"/><path d="M80 140 H320 L300 340 H100 Z" fill="${c}"/><path d="M80 140 H320 L316 180 H84 Z" fill="${D}"/><rect x="180" y="190" width="40" height="24" rx="6" fill="${S}"/><path d="M110 220 L120 320" stroke="${L}" stroke-width="10" stroke-linecap="round"/>`,
  suitcase: (c) =>
    `<path d="M170 80 V40 H230 V80" fill="none" stroke="${M}" stroke-width="14"/><rect x="100" y="80" width="200" height="250" rx="26" fill="${c}"/><path d="M150 90 V320 M200 90 V320 M250 90 V320" stroke="${D}" stroke-width="8"/><circle cx="130" cy="345" r="14" fill="${M}"/><circle cx="270" cy="345" r="14" fill="${M}"/><rect x="112" y="96" width="14" height="200" rx="7" fill="${L}"/>`,
  watch: (c) =>
    `<rect x="150" y="20" width="100" height="360" rx="30" fill="${c}"/><rect x="150" y="20" width="100" height="360" rx="30" fill="${D}"/><circle cx="200" cy="200" r="100" fill="${c}"/><circle cx="200" cy="200" r="82" fill="${W}"/><path d="M200 200 V140 M200 200 L246 224" stroke="${M}" stroke-width="8" stroke-linecap="round"/><circle cx="200" cy="200" r="8" fill="#e0483e"/><rect x="296" y="188" width="20" height="24" rx="6" fill="${c}"/>`,
  smartwatch: (c) =>
    `<rect x="150" y="20" width="100" height="360" rx="30" fill="${c}"/><rect x="120" y="110" width="160" height="180" rx="40" fill="${M}"/><rect x="134" y="124" width="132" height="152" rx="30" fill="#10151c"/><text x="200" y="212" font-family="DejaVu Sans, sans-serif" font-size="44" font-weight="bold" fill="#fff" text-anchor="middle">10:09</text><path d="M160 240 H240" stroke="#3ecf8e" stroke-width="8" stroke-linecap="round"/>`,
  sneaker: (c) =>
    `<path d="M40 280 Q40 200 90 170 L150 140 Q180 190 240 200 L330 220 Q370 230 370 280 Z" fill="${c}"/><path d="M30 280 H370 Q370 310 340 310 H60 Q30 310 30 280 Z" fill="${W}"/><path d="M150 170 L190 160 M170 190 L210 180 M190 206 L230 196" stroke="${L}" stroke-width="8" stroke-linecap="round"/><path d="M80 250 Q200 240 320 262" fill="none" stroke="${D}" stroke-width="8"/>`,
  boot: (c) =>
    `<path d="M110 60 H230 V220 L330 250 Q360 260 360 300 H90 Z" fill="${c}"/><path d="M80 300 H370 V330 H80 Z" fill="${M}"/><path d="M150 90 H200 M150 130 H200 M150 170 H200" stroke="${W}" stroke-width="8"/><rect x="110" y="60" width="120" height="26" fill="${D}"/>`,
  sunglasses: (c) =>
    `<path d="M40 150 H360" stroke="${c}" stroke-width="14"/><path d="M50 150 H180 Q180 260 115 260 Q50 260 50 150 Z" fill="#1d2127"/><path d="M220 150 H350 Q350 260 285 260 Q220 260 220 150 Z" fill="#1d2127"/><path d="M50 150 H180 Q180 260 115 260 Q50 260 50 150 Z M220 150 H350 Q350 260 285 260 Q220 260 220 150 Z" fill="none" stroke="${c}" stroke-width="10"/><path d="M80 180 L110 210 M250 180 L280 210" stroke="${L}" stroke-width="10" stroke-linecap="round"/>`,
} satisfies Record<string, Icon>;

export type IconName = keyof typeof ICONS;

export function isIconName(name: string): name is IconName {
  return Object.hasOwn(ICONS, name);
}
