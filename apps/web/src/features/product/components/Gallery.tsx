import { LONG_PRESS_MS } from '@store/shared';
import { lazy, Suspense, useState } from 'react';
import { ChevronIcon, PlayIcon } from '#web/components/icons.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { useLongPress } from '#web/components/use-long-press.ts';
import type { Media } from '../gallery.ts';

// the preview (a modal) loads when it is first opened, not with the product page
const ImagePreview = lazy(() => import('./ImagePreview.tsx').then((m) => ({ default: m.ImagePreview })));

interface GalleryProps {
  media: Media[];
  /** What the main area shows. */
  index: number;
  onPreview: (index: number) => void;
  /**
   * Thumbnail click or long press on the main image (held for LONG_PRESS_MS). A click or long press on the
   * main image also opens the image preview.
   */
  onSelect: (index: number) => void;
}

function MainMedia({ item, eager }: { item: Media; eager: boolean }) {
  if (item.kind === 'youtube')
    return (
      <iframe
        src={item.src}
        title={item.label}
        loading="lazy"
        allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
        referrerPolicy="strict-origin-when-cross-origin"
        allowFullScreen
      />
    );
  if (item.kind === 'video')
    return <video src={item.src} controls preload="metadata" playsInline aria-label={item.label} />;
  return (
    <ProductImage
      src={item.src}
      alt={item.label}
      width={1024}
      height={768}
      sizes="(max-width: 991px) 100vw, 640px"
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : 'auto'}
      draggable={false}
    />
  );
}

export function Gallery({ media, index, onPreview, onSelect }: GalleryProps) {
  const current = media[index] ?? media[0];
  const [preview, setPreviewState] = useState(false);
  const [opened, setOpened] = useState(false);
  const setPreview = (show: boolean) => {
    if (show) setOpened(true);
    setPreviewState(show);
  };
  const longPress = useLongPress(() => {
    onSelect(index);
    setPreview(true);
  }, LONG_PRESS_MS);
  if (!current) return <div className="gallery-main img-placeholder">No image</div>;
  const many = media.length > 1;
  const step = (d: number) => onPreview((index + d + media.length) % media.length);

  return (
    <div className="gallery">
      <div className="gallery-main" data-kind={current.kind}>
        {current.kind === 'image' ? (
          <button
            type="button"
            className="gallery-zoom"
            aria-label={`Enlarge ${current.label}`}
            aria-haspopup="dialog"
            onClick={() => setPreview(true)}
            {...longPress}
          >
            <MainMedia key={current.src} item={current} eager={index === 0} />
          </button>
        ) : (
          <MainMedia key={current.src} item={current} eager={index === 0} />
        )}
        {many && (
          <>
            <button
              type="button"
              className="gallery-nav gallery-prev"
              onClick={() => step(-1)}
              aria-label="Previous image"
            >
              <ChevronIcon direction="left" size={22} />
            </button>
            <button type="button" className="gallery-nav gallery-next" onClick={() => step(1)} aria-label="Next image">
              <ChevronIcon size={22} />
            </button>
            <span className="gallery-count" aria-live="polite">
              {index + 1} / {media.length}
            </span>
          </>
        )}
      </div>
      {many && (
        <ul className="gallery-thumbs list-unstyled" aria-label="Product images">
          {media.map((m, i) => (
            <li key={m.src}>
              <button
                type="button"
                className="gallery-thumb"
                aria-pressed={i === index}
                aria-label={m.kind === 'image' ? `Show ${m.label}` : `Play ${m.label}`}
                onClick={() => onSelect(i)}
              >
                {m.kind === 'image' ? (
                  <ProductImage src={m.src} alt="" width={80} height={60} sizes="80px" />
                ) : (
                  <span className="gallery-thumb-video">
                    <PlayIcon size={22} />
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      {opened && current.kind === 'image' && (
        <Suspense fallback={null}>
          <ImagePreview src={current.src} label={current.label} show={preview} onClose={() => setPreview(false)} />
        </Suspense>
      )}
    </div>
  );
}
