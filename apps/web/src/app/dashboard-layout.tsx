import type { ReactNode } from 'react';

/**
 * Three columns on wide screens (quick actions, content, updates); below xl the quick actions hide, and below lg the
 * updates sit above the content.
 */
export function DashboardLayout({
  quickActions,
  updates,
  children,
}: {
  quickActions: ReactNode;
  updates: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto grid max-w-screen-2xl gap-6 px-4 py-6 sm:px-6 lg:grid-cols-[minmax(0,1fr)_18rem] xl:grid-cols-[15rem_minmax(0,1fr)_19rem]">
      <aside className="hidden xl:block" aria-label="Quick actions">
        <div className="sticky top-20">{quickActions}</div>
      </aside>
      <aside className="lg:order-last" aria-label="Updates">
        <div className="lg:sticky lg:top-20">{updates}</div>
      </aside>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
