import { render, screen, within } from '@testing-library/react';
import { ClipboardList } from 'lucide-react';
import { lazy } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { StaffPage } from './pages';
import { StaffConsole } from './staff-console';
import { staffPaths } from './staff-paths';

const pages: StaffPage[] = [
  {
    path: staffPaths.auditLog,
    label: 'Audit log',
    icon: ClipboardList,
    component: lazy(async () => ({ default: () => <h1>Audit page</h1> })),
  },
  { path: '/staff/customers/:id', component: lazy(async () => ({ default: () => <h1>Customer page</h1> })) },
];

const renderConsole = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/staff/*" element={<StaffConsole pages={pages} notFound={<p>Page not found</p>} />} />
      </Routes>
    </MemoryRouter>,
  );

describe('StaffConsole', () => {
  it('has a nav entry for each registered page with a label only, marking the current one', async () => {
    renderConsole('/staff/audit-log');
    const nav = screen.getByRole('navigation', { name: 'Staff console' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Audit log']);
    expect(links[0]!.getAttribute('aria-current')).toBe('page');
    expect(await screen.findByRole('heading', { name: 'Audit page' })).toBeTruthy();
  });

  it('routes a detail page with params, lists the pages at /staff, and answers not found otherwise', async () => {
    const detail = renderConsole('/staff/customers/42');
    expect(await screen.findByRole('heading', { name: 'Customer page' })).toBeTruthy();
    detail.unmount();

    const home = renderConsole('/staff');
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Audit log' })).toBeTruthy();
    home.unmount();

    renderConsole('/staff/nothing-here');
    expect(await screen.findByText('Page not found')).toBeTruthy();
  });
});
