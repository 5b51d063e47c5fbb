import { ChevronDown } from 'lucide-react';

export const userMenuButtonClass =
  'flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm text-slate-700 hover:bg-slate-100';

/** What the user menu's button shows: the same before and after the menu's code arrives (no layout shift). */
export function UserMenuButtonContent({ name }: { name: string }) {
  const initials = name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <>
      <span className="flex size-8 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700">
        {initials}
      </span>
      <span className="hidden max-w-40 truncate sm:inline">{name}</span>
      <ChevronDown aria-hidden="true" className="size-4" />
    </>
  );
}
