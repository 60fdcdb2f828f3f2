/**
 * `<Img>`: an image through the optimiser, webp by default, with a srcset from the breakpoints
 * and densities, width and height set so nothing shifts, lazy unless `preload` marks it as the
 * largest image above the fold (then React emits `<link rel=preload as=image>` in the head).
 */
import { preload as preloadResource } from 'react-dom';
import type { ImgHTMLAttributes } from 'react';
import { HERO_ELEMENT_TIMING, imageSources, type ImageModifiers } from '@tern/runtime/shared/images';

export interface ImgProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes' | 'width' | 'height'> {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Mobile-first sizes, `100vw md:50vw lg:400px`; without it, candidates for 1x/2x of `width` (sizes: `width` px). */
  sizes?: string;
  /** The source's own width, when known: no srcset candidate claims more than the file has. */
  sourceWidth?: number;
  format?: string;
  quality?: number;
  fit?: ImageModifiers['fit'];
  /** The largest image above the fold: preload it, load it eagerly, with high priority. */
  preload?: boolean;
}

export function Img({ src, alt, width, height, sizes, sourceWidth, format, quality, fit, preload = false, loading, ...rest }: ImgProps) {
  const sources = imageSources(src, {
    width,
    height,
    ...(sizes ? { sizes } : {}),
    ...(sourceWidth ? { sourceWidth } : {}),
    ...(format ? { format } : {}),
    ...(quality === undefined ? {} : { quality }),
    ...(fit ? { fit } : {}),
  });
  if (preload) {
    preloadResource(sources.src, {
      as: 'image',
      fetchPriority: 'high',
      ...(sources.srcset ? { imageSrcSet: sources.srcset } : {}),
      ...(sources.sizes ? { imageSizes: sources.sizes } : {}),
    });
  }
  return (
    <img
      {...rest}
      src={sources.src}
      srcSet={sources.srcset}
      sizes={sources.sizes}
      alt={alt}
      width={width}
      height={height}
      loading={loading ?? (preload ? 'eager' : 'lazy')}
      decoding={preload ? 'sync' : 'async'}
      // elementtiming: the bootstrap hydrates once this image is painted (see HERO_ELEMENT_TIMING).
      {...(preload ? { fetchPriority: 'high' as const, elementtiming: HERO_ELEMENT_TIMING } : {})}
    />
  );
}
