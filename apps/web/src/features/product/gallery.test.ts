import { describe, expect, it } from 'vitest';
import { galleryMedia, mediaIndexOfVariant, youtubeEmbed } from './gallery.ts';

const product = {
  name: 'Desk Lamp',
  image: '/uploads/lamp/main.webp',
  imageB: [
    { _id: 'a', src: '/uploads/lamp/side.webp' },
    { _id: 'b', src: '/uploads/lamp/main.webp' },
  ],
  colorsVariants: [
    { _id: 'v1', name: 'Red', src: '/uploads/lamp/red.webp', price: 30, countInStock: null, sku: '' },
    { _id: 'v2', name: 'Plain', src: '', price: null, countInStock: null, sku: '' },
  ],
  video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
};

describe('galleryMedia', () => {
  it('lists the main image, gallery, variant images and the video once each', () => {
    const media = galleryMedia(product);
    expect(media.map((m) => m.kind)).toEqual(['image', 'image', 'image', 'youtube']);
    expect(media[2]).toMatchObject({ src: '/uploads/lamp/red.webp', variantId: 'v1' });
    expect(media[3]?.src).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(mediaIndexOfVariant(media, product, 'v1')).toBe(2);
    expect(mediaIndexOfVariant(media, product, 'v2')).toBe(-1);
  });

  it("labels a gallery picture that is also a variant's picture as that variant", () => {
    const media = galleryMedia({
      ...product,
      imageB: [{ _id: 'a', src: '/uploads/lamp/red.webp' }],
      colorsVariants: [
        { _id: 'v1', name: 'Red', src: '/uploads/lamp/red.webp', price: null, countInStock: null, sku: '' },
        { _id: 'v3', name: 'Also red', src: '/uploads/lamp/red.webp', price: null, countInStock: null, sku: '' },
      ],
      video: '',
    });
    expect(media).toHaveLength(2);
    expect(media[1]).toMatchObject({ label: 'Desk Lamp in Red', variantId: 'v1' });
  });

  it('plays other video URLs in a video element and ignores non-URLs', () => {
    expect(galleryMedia({ ...product, video: '/uploads/lamp/clip.mp4' }).at(-1)).toMatchObject({ kind: 'video' });
    expect(galleryMedia({ ...product, video: 'javascript:alert(1)' }).some((m) => m.kind !== 'image')).toBe(false);
  });
});

describe('youtubeEmbed', () => {
  it('turns embed, watch and short links into a no-cookie embed', () => {
    for (const url of [
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=3',
    ])
      expect(youtubeEmbed(url)).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(youtubeEmbed('https://vimeo.com/123')).toBeNull();
    expect(youtubeEmbed('not a url')).toBeNull();
  });
});
