import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { TIERS, type Tier } from '@keyport/shared/domain/tiers';
import type { Services } from '../services';
import { legacyOrderValues } from './legacy-orders';
import { homepageSettings, licenseKeys, orders, userStores, users } from './schema';
import {
  DEMO_ACCOUNTS,
  DEMO_CUSTOMER_KEYS,
  DEMO_HOMEPAGE_UPDATES,
  DEMO_ORDER_AGES_MONTHS,
  DEMO_PREVIOUS_RELEASE,
  DEMO_REDEEM_PRODUCTS,
  DEMO_RELEASE,
  DEMO_USER_STORES,
  TEAM_KEYS,
  TEAM_SEED_CREDITS,
  UNCLAIMED_KEYS,
} from './seed-data';
import { findUserByEmail } from '../modules/auth/auth.repo';
import { AppError } from '../http/errors';
import { generateThemeZip } from './demo-theme';

function monthsAgo(months: number, now: Date): Date {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date;
}

function isoDateDaysAgo(days: number, now: Date): string {
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Seeds the demo accounts, keys, stores, orders, the team member's credits and updates feed once (the redeem products
 * whenever missing, by name). Runs only when the demo customer does not
 * exist, in one transaction, so a crash half-way leaves nothing behind and the next start seeds again.
 * Each edition without a release gets the demo theme release, whether the accounts were seeded now or before.
 */
export async function seedDemoData(
  services: Pick<Services, 'db' | 'auth' | 'releases' | 'credits' | 'publicUrl'>,
  log: FastifyBaseLogger,
  now = new Date(),
) {
  const { db, auth } = services;
  await seedDemoReleases(services.releases, services.publicUrl(), log);
  await services.credits.ensureProducts(DEMO_REDEEM_PRODUCTS);
  if (await findUserByEmail(db, DEMO_ACCOUNTS[0].email)) return false;
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((account) => auth.hashPassword(account.password)));
  await db.transaction(async (tx) => {
    const created = await tx
      .insert(users)
      .values(DEMO_ACCOUNTS.map((a, i) => ({ email: a.email, name: a.name, role: a.role, passwordHash: hashes[i]! })))
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email });
    const idOf = (email: string) => created.find((u) => u.email === email)?.id ?? null;
    const demoId = idOf('demo@example.com');
    const teamId = idOf('team@example.com');
    const staffId = idOf('staff@example.com');
    const keyRows = [
      ...DEMO_CUSTOMER_KEYS.map((k) => ({ ...k, ownerId: demoId })),
      ...TEAM_KEYS.map((k) => ({ ...k, ownerId: teamId })),
      ...UNCLAIMED_KEYS.map((k) => ({ ...k, ownerId: null })),
    ].map((k) => ({ ...k, claimedAt: k.ownerId ? now : null }));
    await tx.insert(licenseKeys).values(keyRows).onConflictDoNothing();
    if (demoId) {
      await tx
        .insert(userStores)
        .values(DEMO_USER_STORES.map((domain) => ({ userId: demoId, myshopifyDomain: domain })))
        .onConflictDoNothing();
      await tx.insert(orders).values(
        DEMO_ORDER_AGES_MONTHS.map((months) =>
          legacyOrderValues({ userId: demoId, description: 'Theme license', createdAt: monthsAgo(months, now) }),
        ),
      );
    }
    if (teamId) {
      await services.credits.grant(tx, {
        userId: teamId,
        kind: 'grant',
        amount: TEAM_SEED_CREDITS,
        sourceRef: 'seed:team',
        note: 'Demo credits',
      });
    }
    const updates = DEMO_HOMEPAGE_UPDATES.map(({ daysAgo, ...update }) => ({
      ...update,
      date: isoDateDaysAgo(daysAgo, now),
    }));
    // A feed staff already edited is kept as it is.
    await tx
      .insert(homepageSettings)
      .values({ id: 1, published: updates, draft: updates, updatedBy: staffId })
      .onConflictDoNothing();
  });
  log.info(
    `Demo data seeded. Sign in with:\n${DEMO_ACCOUNTS.map((a) => `  ${a.email} / ${a.password}${a.role ? ` (${a.role})` : ''}`).join('\n')}\n` +
      `Unclaimed keys to add: ${UNCLAIMED_KEYS.map((k) => k.apiKey).join(', ')}`,
  );
  return true;
}

/**
 * Two generated theme zips (generateThemeZip) per edition: the previous demo version and the current one, each
 * published when missing, their license check pointed at this portal. Idempotent.
 */
async function seedDemoReleases(
  releases: Services['releases'],
  portalUrl: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const demoReleases = [DEMO_PREVIOUS_RELEASE, DEMO_RELEASE];
  const missing: { edition: Tier; release: (typeof demoReleases)[number] }[] = [];
  for (const edition of TIERS) {
    for (const release of demoReleases) {
      const stored = await releases.findReleaseByVersion(edition, release.version);
      if (!stored) missing.push({ edition, release });
      else if ('migrationMap' in release) await releases.attachSeedMigrationMap(stored, release.migrationMap);
    }
  }
  if (missing.length === 0) return;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keyport-seed-'));
  try {
    for (const { edition, release } of missing) {
      const zipPath = path.join(dir, `${edition.toLowerCase()}-${release.version}.zip`);
      const { version, notes, themeName, theme } = release;
      await generateThemeZip(zipPath, {
        edition,
        version,
        themeName,
        settingRenames: 'settingRenames' in theme ? { ...theme.settingRenames } : undefined,
        announcementBar: 'announcementBar' in theme ? theme.announcementBar : undefined,
        featuredSection: { blockTypes: [...theme.featuredSection.blockTypes] },
        // The theme's license check calls this portal (ADR 033): a vendor builds its URL into the theme it ships.
        licensePortalUrl: portalUrl,
      });
      try {
        await releases.publishRelease({
          edition,
          version,
          notes,
          zipPath,
          createdBy: null,
          reason: 'Demo release (seed)',
          migrationMap: 'migrationMap' in release ? release.migrationMap : null,
        });
      } catch (error) {
        // Another process seeded the same version meanwhile.
        if (!(error instanceof AppError && error.statusCode === 409)) throw error;
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  log.info(`Demo theme releases seeded: ${missing.map((m) => `${m.edition} ${m.release.version}`).join(', ')}.`);
}
