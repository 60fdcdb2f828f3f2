/** Where toasts show and which way they swipe away: the toaster (toaster.tsx) and its Radix part share it. */
export type ToasterPosition = 'top-left' | 'top-center' | 'top-right' | 'bottom-left' | 'bottom-center' | 'bottom-right';
type SwipeDirection = 'up' | 'down' | 'left' | 'right';

/** As Nuxt UI: `*-right` swipes right, `*-left` left, `top-center` up, `bottom-center` down. */
export function swipeDirectionFor(position: ToasterPosition): SwipeDirection {
  if (position.endsWith('-right')) return 'right';
  if (position.endsWith('-left')) return 'left';
  return position === 'top-center' ? 'up' : 'down';
}
