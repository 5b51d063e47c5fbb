import { Suspense, type ReactNode } from 'react';
import { Link, Route, Routes } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { Skeleton } from '../../components/ui/skeleton';
import { StaffLayout, StaffPageHeader } from './components/staff-layout';
import { staffPages, type StaffPage } from './pages';
import { relativeToConsole } from './staff-paths';

/** `/staff`: the registered pages, as a list of links. */
function ConsoleHome({ pages }: { pages: StaffPage[] }) {
  const linked = pages.filter((entry) => entry.label);
  return (
    <>
      <StaffPageHeader title="Staff console" description="Everything the vendor's staff run, with an audit trail." />
      {linked.length === 0 ? (
        <EmptyState title="No pages yet" text="The console's pages have not been added yet." />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {linked.map(({ path, label, icon: Icon }) => (
            <li key={path}>
              <Link
                to={path}
                className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 font-medium text-slate-900 hover:border-brand-300 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
              >
                {Icon ? <Icon aria-hidden="true" className="size-5 text-brand-700" /> : null}
                {label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * The staff console's route tree under `/staff/*` (a lazy chunk: loaded only once the app knows the person is staff).
 * `notFound` is the app's not-found page for a path no page registered.
 */
export function StaffConsole({
  userMenu,
  notFound,
  pages = staffPages,
}: {
  userMenu?: ReactNode;
  notFound: ReactNode;
  pages?: StaffPage[];
}) {
  return (
    <StaffLayout pages={pages} userMenu={userMenu}>
      <Suspense fallback={<Skeleton className="h-64 rounded-xl" />}>
        <Routes>
          <Route index element={<ConsoleHome pages={pages} />} />
          {pages.map(({ path, component: Page }) => (
            <Route key={path} path={relativeToConsole(path)} element={<Page />} />
          ))}
          <Route path="*" element={notFound} />
        </Routes>
      </Suspense>
    </StaffLayout>
  );
}
