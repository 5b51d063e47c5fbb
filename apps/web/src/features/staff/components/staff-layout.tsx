import { ShieldCheck, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { SkipLink } from '../../../components/ui/skip-link';
import { cn } from '../../../lib/cn';
import { paths } from '../../../lib/paths';
import { staffPaths } from '../staff-paths';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex shrink-0 items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap',
    'focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );

/**
 * What the nav needs of a page (`StaffPage` of pages.tsx has it). Declared here, not imported from pages.tsx: the
 * pages import this file (`StaffPageHeader`), so that import was a circle (issue 21).
 */
export interface StaffNavEntry {
  path: string;
  /** A page without a label (a detail page) gets no nav entry. */
  label?: string;
  icon?: LucideIcon;
}

/**
 * The console's frame: a header (brand, `userMenu`), the nav of the registered pages, and the page. The nav is one
 * list of links (Tab moves through it; the current page has aria-current): a sidebar from the lg width, a compact row
 * that scrolls sideways on a phone.
 */
export function StaffLayout({
  pages,
  userMenu,
  children,
}: {
  pages: StaffNavEntry[];
  userMenu?: ReactNode;
  children: ReactNode;
}) {
  const navPages = pages.filter((entry) => entry.label);
  return (
    <div className="min-h-dvh bg-slate-50">
      <SkipLink target="staff-main" />
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="flex h-14 items-center justify-between gap-3 px-4 sm:px-6">
          <Link to={staffPaths.home} className="flex items-center gap-2 font-semibold text-brand-700">
            <ShieldCheck aria-hidden="true" className="size-5" />
            Staff console
          </Link>
          <div className="flex items-center gap-2">
            <Link
              to={paths.myKeys}
              className="rounded-lg px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
            >
              Portal
            </Link>
            {userMenu}
          </div>
        </div>
      </header>
      <div className="lg:grid lg:grid-cols-[14rem_minmax(0,1fr)]">
        <nav
          aria-label="Staff console"
          className="border-b border-slate-200 bg-white lg:sticky lg:top-14 lg:h-[calc(100dvh-3.5rem)] lg:border-r lg:border-b-0"
        >
          <ul className="relative flex gap-1 overflow-x-auto px-3 py-2 lg:flex-col lg:overflow-visible lg:py-4">
            {navPages.map(({ path, label, icon: Icon }) => (
              <li key={path}>
                <NavLink to={path} className={navLinkClass}>
                  {Icon ? <Icon aria-hidden="true" className="size-4" /> : null}
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="staff-main" className="min-w-0 px-4 py-6 sm:px-6">
          {children}
        </main>
      </div>
    </div>
  );
}

/** Title of a console page, with an optional line under it and actions beside it. */
export function StaffPageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
