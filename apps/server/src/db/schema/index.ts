/**
 * The database schema (Drizzle), one file per owning module or integration (issue 21, ADR 044): `db/schema/<owner>.ts`.
 * Everything is re-exported here, so `db/schema` stays the one import; drizzle-kit reads the folder.
 * Which module owns which table: docs/architecture.md ("The map"), enforced by ESLint's `TABLE_OWNERS`.
 */
export * from './analytics';
export * from './analytics-sandbox';
export * from './audit';
export * from './auth';
export * from './billing';
export * from './columns';
export * from './connect';
export * from './credits';
export * from './email';
export * from './homepage';
export * from './invoices';
export * from './jobs';
export * from './keys';
export * from './licenses';
export * from './payments';
export * from './releases';
export * from './sandbox-payments';
export * from './sandbox-paypal';
export * from './theme-file-updates';
export * from './upgrades';
