/** Product-like illustrations for the demo catalogue, drawn as SVG and rendered with sharp. */
import { ICONS, type IconName } from './demo-icons.ts';

export const IMAGE_W = 1024;
export const IMAGE_H = 768;

export interface ShotSpec {
  name: string;
  brand: string;
  icon: IconName;
  /** The product's colour (a variant's colour, or its plain colour). */
  color: string;
  /** Background hue, one per product. */
  hue: number;
  /** 0 main, 1 angle, 2 detail, 3 lifestyle. */
  view: 0 | 1 | 2 | 3;
  /** Caption for the detail view (a feature), or the colour name. */
  caption?: string;
}

const FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';
const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Splits a name into at most two lines of about `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > 2) lines.splice(1, lines.length - 1, `${(lines[1] ?? '').slice(0, width - 1)}…`);
  return lines;
}

function icon(spec: ShotSpec, x: number, y: number, scale: number, rotate = 0): string {
  return `<g transform="translate(${x} ${y}) rotate(${rotate}) scale(${scale}) translate(-200 -200)" stroke="rgba(0,0,0,0.16)" stroke-width="2">${ICONS[spec.icon](spec.color)}</g>`;
}

export function productSvg(spec: ShotSpec): string {
  const { hue, view } = spec;
  const h2 = (hue + 35) % 360;
  const bgFrom = view === 1 ? `hsl(${h2},55%,80%)` : `hsl(${hue},60%,90%)`;
  const bgTo = view === 1 ? `hsl(${hue},60%,93%)` : `hsl(${h2},50%,72%)`;
  const ink = `hsl(${hue},35%,22%)`;
  const lines = wrap(spec.name, 44);
  const title = lines
    .map(
      (l, i) =>
        `<text x="512" y="${lines.length === 1 ? 700 : 672 + i * 44}" font-size="36" font-weight="bold" fill="${ink}" text-anchor="middle">${esc(l)}</text>`,
    )
    .join('');
  const brand = `<text x="56" y="86" font-size="30" font-weight="bold" letter-spacing="6" fill="${ink}" opacity="0.8">${esc(spec.brand.toUpperCase())}</text>`;
  let body = '';
  if (view === 0) {
    body = `<ellipse cx="512" cy="545" rx="240" ry="32" fill="rgba(0,0,0,0.16)"/>${icon(spec, 512, 330, 1.2)}${title}`;
  } else if (view === 1) {
    body =
      `<circle cx="820" cy="160" r="220" fill="rgba(255,255,255,0.35)"/><circle cx="160" cy="640" r="160" fill="rgba(255,255,255,0.25)"/>` +
      `<ellipse cx="530" cy="575" rx="220" ry="28" fill="rgba(0,0,0,0.14)"/>${icon(spec, 530, 350, 1.15, -14)}`;
  } else if (view === 2) {
    const caption = esc((spec.caption ?? '').slice(0, 40));
    body =
      `${icon(spec, 700, 420, 2.3, 8)}<rect x="56" y="520" width="${Math.max(220, caption.length * 21 + 64)}" height="96" rx="48" fill="rgba(255,255,255,0.88)"/>` +
      `<text x="88" y="581" font-size="36" font-weight="bold" fill="${ink}">${caption}</text>`;
  } else {
    body =
      `<rect x="0" y="560" width="1024" height="208" fill="rgba(255,255,255,0.35)"/>` +
      `${icon(spec, 250, 420, 0.75, -10)}${icon(spec, 512, 360, 1.0)}${icon(spec, 774, 420, 0.75, 10)}` +
      `<text x="512" y="700" font-size="34" fill="${ink}" text-anchor="middle">Designed by ${esc(spec.brand)}</text>`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_W}" height="${IMAGE_H}" viewBox="0 0 ${IMAGE_W} ${IMAGE_H}" font-family="${FONT}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bgFrom}"/><stop offset="1" stop-color="${bgTo}"/></linearGradient>` +
    `</defs><rect width="${IMAGE_W}" height="${IMAGE_H}" fill="url(#bg)"/>` +
    // soft light behind the product (solid translucent discs: a radial gradient costs more to render than the rest)
    `<circle cx="512" cy="340" r="370" fill="#fff" fill-opacity="0.16"/><circle cx="512" cy="340" r="270" fill="#fff" fill-opacity="0.2"/>` +
    `${brand}${body}</svg>`
  );
}

/**
 * Renders a shot for storeImage. A high-quality JPEG rather than a PNG: libjpeg decodes it with
 * shrink-on-load for the smaller widths, which makes the whole seed about a third faster.
 */
export async function renderShot(spec: ShotSpec): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(productSvg(spec)))
    .jpeg({ quality: 92 })
    .toBuffer();
}
