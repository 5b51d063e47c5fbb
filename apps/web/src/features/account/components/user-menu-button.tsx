import { ChevronDown } from 'lucide-react';

export const userMenuButtonClass =
  'flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm text-slate-700 hover:bg-slate-100';

/** Said after the person's name: the button's name is "{name} (user menu)", starting with what it shows. */
export const USER_MENU_SUFFIX = ' (user menu)';

/**
 * What the user menu's button shows: the same before and after the menu's code arrives (no layout shift). Its
 * accessible name starts with the visible name (WCAG 2.5.3 label in name): the initials are decoration, and on a
 * phone, where only they show, the name is still read out.
 */
export function UserMenuButtonContent({ name }: { name: string }) {
  const initials = name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <>
      <span
        aria-hidden="true"
        className="flex size-8 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700"
      >
        {initials}
      </span>
      <span className="sr-only sm:not-sr-only sm:max-w-40">
        <span className="block truncate">{name}</span>
      </span>
      <span className="sr-only">{USER_MENU_SUFFIX}</span>
      <ChevronDown aria-hidden="true" className="size-4" />
    </>
  );
}
