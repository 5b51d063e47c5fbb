import { useSyncExternalStore } from 'react';

/** Tailwind's `xl` breakpoint (80rem): from here the dashboard shows its Quick Actions panel. */
export const XL_MEDIA_QUERY = '(min-width: 80rem)';

/** Whether the media query matches now, following it as the window changes (false where there is no matchMedia). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
  );
}
