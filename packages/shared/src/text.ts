/**
 * Text cleaning of every plain-text field: no control characters, no zero-width or direction marks,
 * no angle brackets, runs of spaces collapsed. Used on every plain-text field by the server
 * before storing, and by the web app to preview what will be stored.
 */
// C0/C1 controls except \t \n \r (handled separately), zero-width, direction marks and BOM.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]/g;
const ANGLE = /[<>]/g;

export function stripInvisible(input: string): string {
  return input.replace(CONTROL, '').replace(INVISIBLE, '');
}

/** Single-line clean: also turns newlines and tabs into spaces. */
export function cleanText(input: string, maxLength?: number): string {
  let s = stripInvisible(input.normalize('NFC'))
    .replace(/[\r\n\t]+/g, ' ')
    .replace(ANGLE, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (maxLength !== undefined && s.length > maxLength) s = s.slice(0, maxLength).trim();
  return s;
}

/** Multi-line clean: keeps line breaks (collapsing blank runs), for comments and messages. */
export function cleanMultiline(input: string, maxLength?: number): string {
  let s = stripInvisible(input.normalize('NFC').replace(/\r\n?/g, '\n'))
    .replace(ANGLE, '')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (maxLength !== undefined && s.length > maxLength) s = s.slice(0, maxLength).trim();
  return s;
}

/** True when the text looks like it carries markup or a script. */
export function hasHtml(input: string): boolean {
  return /<\s*\/?\s*[a-z!?][^>]*>?|<\s*\/?\s*>|javascript:|on\w+\s*=/i.test(input) || /[<>]/.test(input);
}

/** Escapes text for inclusion in HTML (server-written meta tags). */
export function escapeHtml(input: string): string {
  return input
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Plain text of rich-text HTML (for search and meta descriptions). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6])>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cuts text at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function truncate(input: string, max: number): string {
  if (input.length <= max) return input;
  const cut = input.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Card name rule: a name of at most 40 characters shows whole; a longer one shows its first 60 characters
 * (all of it when shorter) followed by an ellipsis.
 */
export function cardName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 60)}…` : name;
}

/** URL slug: lowercase ASCII letters, digits and hyphens. */
export function slugify(input: string): string {
  const s = input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return s || 'product';
}

export const OBJECT_ID_RE = /^[0-9a-f]{24}$/;
export function isObjectId(value: string): boolean {
  return OBJECT_ID_RE.test(value);
}

/** Responsive srcset for an image stored by the server (see storeImage); undefined for other URLs. */
export function imageSrcSet(src: string, widths: readonly number[] = [320, 640, 1024]): string | undefined {
  const m = /^(\/uploads\/[^?#]+)\.webp$/.exec(src);
  if (!m) return undefined;
  const sorted = [...widths].sort((a, b) => a - b);
  const largest = sorted[sorted.length - 1];
  return sorted.map((w) => `${w === largest ? src : `${m[1]}-${w}.webp`} ${w}w`).join(', ');
}
