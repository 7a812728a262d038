import { imageSrcSet } from '@store/shared';
import type { ImgHTMLAttributes } from 'react';

interface ProductImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet'> {
  src: string;
  alt: string;
  /** Intrinsic box to reserve (avoids layout shift); the CSS decides the shown size. */
  width?: number;
  height?: number;
}

/** A catalogue image with the server's responsive widths (imageSrcSet) and a fallback tile. */
export function ProductImage({ src, alt, width = 640, height = 480, loading = 'lazy', ...rest }: ProductImageProps) {
  if (!src) {
    return (
      <span className={`img-placeholder ${rest.className ?? ''}`} role="img" aria-label={alt || 'No image'}>
        No image
      </span>
    );
  }
  return (
    <img
      src={src}
      srcSet={imageSrcSet(src)}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      decoding="async"
      {...rest}
    />
  );
}
