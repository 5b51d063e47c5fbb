import {
  Flag,
  Percent,
  ListRestart,
  Megaphone,
  Radar,
  Package,
  Receipt,
  ScrollText,
  Tags,
  Ticket,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { StaffNavEntry } from './components/staff-layout';
import { staffPaths } from './staff-paths';

/** One page of the staff console: its path, its nav label and icon, and its code (a lazy chunk of its own). */
export interface StaffPage extends StaffNavEntry {
  /** Absolute, from `staffPaths` (e.g. `staffPaths.auditLog`); may hold params (`/staff/customers/:id`). */
  path: string;
  /** The nav entry's text; a page without a label (a detail page) gets no nav entry. */
  label?: string;
  icon?: LucideIcon;
  component: LazyExoticComponent<ComponentType>;
}

/** `lazy()` for a page module's named export: `page(() => import('./audit-log/audit-log-page'), 'AuditLogPage')`. */
export function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

/**
 * THE REGISTRY of the staff console's pages, in nav order. To add a page: put it under
 * `features/staff/<your-area>/`, then add ONE entry on the line under your area's comment (keep the blank lines: each
 * area edits its own spot, so branches merge without conflicts), e.g.
 *
 *   { path: staffPaths.orders, label: 'Orders', icon: Receipt, component: page(() => import('./orders/orders-page'), 'OrdersPage') },
 *
 * A nav entry appears only for a registered page with a label; `/staff` lists them too.
 */
export const staffPages: StaffPage[] = [
  // Audit log (staff-shell)
  {
    path: staffPaths.auditLog,
    label: 'Audit log',
    icon: ScrollText,
    component: page(() => import('./audit-log/audit-log-page'), 'AuditLogPage'),
  },

  // Updates feed (staff-shell)
  {
    path: staffPaths.updates,
    label: 'Updates feed',
    icon: Megaphone,
    component: page(() => import('./updates/updates-page'), 'UpdatesPage'),
  },

  // Customers + customer detail (staff-customers)
  {
    path: staffPaths.customers,
    label: 'Customers',
    icon: Users,
    component: page(() => import('./customers/customers-page'), 'CustomersPage'),
  },
  { path: '/staff/customers/:id', component: page(() => import('./customers/customer-page'), 'CustomerPage') },

  // Orders (staff-money)
  {
    path: staffPaths.orders,
    label: 'Orders',
    icon: Receipt,
    component: page(() => import('./orders/orders-page'), 'OrdersPage'),
  },

  // Upgrade tokens (staff-money)
  {
    path: staffPaths.upgradeTokens,
    label: 'Upgrade tokens',
    icon: Ticket,
    component: page(() => import('./upgrade-tokens/upgrade-tokens-page'), 'UpgradeTokensPage'),
  },

  // Catalogue (staff-money)
  {
    path: staffPaths.catalogue,
    label: 'Catalogue',
    icon: Tags,
    component: page(() => import('./catalogue/catalogue-page'), 'CataloguePage'),
  },

  // Releases (staff-releases)
  {
    path: staffPaths.releases,
    label: 'Releases',
    icon: Package,
    component: page(() => import('./releases/releases-page'), 'ReleasesPage'),
  },

  // Store reports (staff-releases)
  {
    path: staffPaths.reports,
    label: 'Store reports',
    icon: Flag,
    component: page(() => import('./reports/reports-page'), 'ReportsPage'),
  },

  // License sightings (licenses-web)
  {
    path: staffPaths.sightings,
    label: 'Sightings',
    icon: Radar,
    component: page(() => import('./sightings/sightings-page'), 'SightingsPage'),
  },

  // VAT rates by country and start date (ADR 036)
  {
    path: staffPaths.vatRates,
    label: 'VAT rates',
    icon: Percent,
    component: page(() => import('./vat-rates/vat-rates-page'), 'VatRatesPage'),
  },

  // Jobs that failed: retry them (ADR 038)
  {
    path: staffPaths.jobs,
    label: 'Jobs',
    icon: ListRestart,
    component: page(() => import('./jobs/jobs-page'), 'JobsPage'),
  },
];
