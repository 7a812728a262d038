import type { Product } from '@store/shared';

export type Media =
  | { kind: 'image'; src: string; label: string; variantId?: string }
  | { kind: 'youtube'; src: string; label: string }
  | { kind: 'video'; src: string; label: string };

/** An embeddable YouTube URL for an embed, watch or youtu.be link; null for anything else. */
export function youtubeEmbed(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const host = u.hostname.replace(/^www\.|^m\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = u.pathname.slice(1);
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const m = /^\/(?:embed|shorts|v)\/([^/?#]+)/.exec(u.pathname);
    id = m?.[1] ?? (u.pathname === '/watch' ? u.searchParams.get('v') : null);
  }
  if (!id || !/^[\w-]{6,20}$/.test(id)) return null;
  return `https://www.youtube-nocookie.com/embed/${id}`;
}

/** Main image, gallery images, variant images, then the video; each source once. */
export function galleryMedia(p: Pick<Product, 'name' | 'image' | 'imageB' | 'colorsVariants' | 'video'>): Media[] {
  const out: Media[] = [];
  const bySrc = new Map<string, number>();
  const addImage = (src: string, label: string) => {
    if (!src || bySrc.has(src)) return;
    bySrc.set(src, out.length);
    out.push({ kind: 'image', src, label });
  };
  addImage(p.image, p.name);
  p.imageB.forEach((img, i) => addImage(img.src, `${p.name}, image ${i + 2}`));
  // A variant's picture is often also in the gallery: that entry then stands for the variant.
  for (const v of p.colorsVariants) {
    if (!v.src) continue;
    addImage(v.src, '');
    const i = bySrc.get(v.src) as number;
    const entry = out[i];
    if (entry?.kind === 'image' && !entry.variantId)
      out[i] = { ...entry, label: `${p.name} in ${v.name}`, variantId: v._id };
  }
  const video = p.video.trim();
  if (video) {
    const yt = youtubeEmbed(video);
    if (yt) out.push({ kind: 'youtube', src: yt, label: `${p.name} video` });
    else if (/^(https?:\/\/|\/)/.test(video)) out.push({ kind: 'video', src: video, label: `${p.name} video` });
  }
  return out;
}

/** Where a variant's picture sits in the gallery (it may share the main image). */
export function mediaIndexOfVariant(media: Media[], p: Pick<Product, 'colorsVariants'>, variantId: string): number {
  const src = p.colorsVariants.find((v) => v._id === variantId)?.src;
  if (!src) return -1;
  return media.findIndex((m) => m.kind === 'image' && m.src === src);
}
