import type { Tier } from '@keyport/shared/domain/tiers';

/** The demo accounts printed at first start and listed in the README. */
export const DEMO_ACCOUNTS = [
  { email: 'demo@example.com', password: 'demo-password', name: 'Dana Demo', role: null },
  { email: 'team@example.com', password: 'team-password', name: 'Theo Team', role: 'team' },
  { email: 'staff@example.com', password: 'staff-password', name: 'Sam Staff', role: 'staff' },
] as const;

interface SeedKey {
  apiKey: string;
  tier: Tier;
  linkedAppStore?: string;
  mainUrl?: string;
  myshopify?: string;
  secondaryUrl?: string;
}

/** The demo customer's 9 keys: 3 PRO, 3 REGULAR, 3 LITE; some connected, some not, one secondary_url 'None'. */
export const DEMO_CUSTOMER_KEYS: SeedKey[] = [
  {
    apiKey: 'PR0A1-DEM0K-EY001-AURRA-PR001',
    tier: 'PRO',
    mainUrl: 'https://aurora-outfitters.com',
    myshopify: 'aurora-outfitters.myshopify.com',
    secondaryUrl: 'https://aurora-outfitters.co.uk',
  },
  {
    apiKey: 'PR0B2-DEM0K-EY002-BLMHS-PR002',
    tier: 'PRO',
    linkedAppStore: 'bloom-house.myshopify.com',
    myshopify: 'bloom-house.myshopify.com',
    secondaryUrl: 'None',
  },
  { apiKey: 'PR0C3-DEM0K-EY003-SPARE-PR003', tier: 'PRO' },
  {
    apiKey: 'RG0A1-DEM0K-EY004-CDRWD-RG001',
    tier: 'REGULAR',
    mainUrl: 'https://cedarwood-coffee.com',
    myshopify: 'cedarwood-coffee.myshopify.com',
  },
  { apiKey: 'RG0B2-DEM0K-EY005-SPARE-RG002', tier: 'REGULAR' },
  { apiKey: 'RG0C3-DEM0K-EY006-DNMDL-RG003', tier: 'REGULAR', myshopify: 'dune-and-dale.myshopify.com' },
  {
    apiKey: 'LT0A1-DEM0K-EY007-EMBRS-LT001',
    tier: 'LITE',
    mainUrl: 'https://embers-candles.com',
    myshopify: 'embers-candles.myshopify.com',
  },
  { apiKey: 'LT0B2-DEM0K-EY008-SPARE-LT002', tier: 'LITE' },
  { apiKey: 'LT0C3-DEM0K-EY009-SPARE-LT003', tier: 'LITE' },
];

export const DEMO_USER_STORES = ['aurora-outfitters.myshopify.com', 'bloom-house.myshopify.com'];

export const TEAM_KEYS: SeedKey[] = [
  {
    apiKey: 'PR0T1-TEAMK-EY001-FJRDS-PR101',
    tier: 'PRO',
    mainUrl: 'https://fjord-studio.com',
    myshopify: 'fjord-studio.myshopify.com',
  },
  { apiKey: 'LT0T2-TEAMK-EY002-SPARE-LT101', tier: 'LITE' },
];

/** Unclaimed keys, listed in the README, for trying "Add Existing License Key". */
export const UNCLAIMED_KEYS: SeedKey[] = [
  { apiKey: 'FREE1-PR0KY-AVA1L-ABLE0-00001', tier: 'PRO' },
  { apiKey: 'FREE2-RG0KY-AVA1L-ABLE0-00002', tier: 'REGULAR' },
  { apiKey: 'FREE3-RG0KY-AVA1L-ABLE0-00003', tier: 'REGULAR' },
  { apiKey: 'FREE4-LT0KY-AVA1L-ABLE0-00004', tier: 'LITE' },
  { apiKey: 'FREE5-LT0KY-AVA1L-ABLE0-00005', tier: 'LITE' },
];

/** Months before "now" of the demo customer's orders; the newest is 8 months old. */
export const DEMO_ORDER_AGES_MONTHS = [20, 8];

/** The dashboard's updates feed (published and draft alike); each dated this many days before the seed. */
export const DEMO_HOMEPAGE_UPDATES: { daysAgo: number; title: string; body: string; link?: string }[] = [
  {
    daysAgo: 3,
    title: 'Theme 4.2 is out',
    body: 'Faster collection pages, a new mega-menu layout and fixes for the cart drawer on iOS. Download it from any license card.',
    link: 'https://example.com/changelog/4-2',
  },
  {
    daysAgo: 17,
    title: 'New setup guide video',
    body: 'A ten-minute walk-through of connecting a store, generating a token and pasting it into the theme settings.',
    link: 'https://example.com/help/setup-guide',
  },
  {
    daysAgo: 45,
    title: 'Earn credits by reporting copies',
    body: 'Report five stores that use unauthorized copies of the theme and we add one credit to your account.',
  },
];

/** The version before DEMO_RELEASE (the demo theme's 'previous' variant): theme upgrades have something to merge. */
export const DEMO_PREVIOUS_RELEASE = {
  version: '4.1.0',
  themeName: 'Aurora',
  notes: 'Demo release (previous): the accent setting was color_primary; it had an announcement bar section.',
  /** The older theme: accent colour called color_primary, an announcement bar, a featured section with text blocks. */
  theme: {
    settingRenames: { color_accent: 'color_primary' },
    announcementBar: true,
    featuredSection: { blockTypes: ['text'] },
  },
} as const;

export const DEMO_RELEASE = {
  version: '4.2.0',
  themeName: 'Aurora',
  notes: 'Demo release: a small generated theme with a license token setting.',
  /** Since the previous version: color_primary renamed color_accent, no announcement bar, a new quote block type. */
  theme: { featuredSection: { blockTypes: ['text', 'quote'] } },
  /** The rename, as staff upload it with the release: theme-file updates move a store's accent colour by it. */
  migrationMap: { settings: { color_primary: 'color_accent' } },
} as const;

/** What credits buy on a fresh install (staff manage them at /staff/redeem-products); seeded by name. */
export const DEMO_REDEEM_PRODUCTS = [
  {
    name: 'REGULAR License',
    description: 'A new REGULAR license key for one more store.',
    grantType: 'license_level',
    grantValue: 'REGULAR',
    costCredits: 5,
    active: true,
  },
  {
    name: 'PRO License',
    description: 'A new PRO license key with every feature, for one more store.',
    grantType: 'license_level',
    grantValue: 'PRO',
    costCredits: 10,
    active: true,
  },
];

/** The team member's starting credits (the demo customer has none), so the demo shows both redeem paths. */
export const TEAM_SEED_CREDITS = 12;
