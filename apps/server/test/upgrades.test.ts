import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { licenseKeys, licenseKeyTierChanges, purchasedUpgrades, upgradeTokens } from '../src/db/schema';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';
import { tierOf as tierOfKey } from './helpers/keys';

let t: TestApp;
let people = 0;
let ips = 0;

beforeAll(async () => {
  // Generous token limits here: the concurrency test sends a thousand redemptions; the limit has its own test below.
  t = await createTestApp({ UPGRADE_TOKEN_RATE_LIMIT_MAX: '100000', UPGRADE_TOKEN_RATE_LIMIT_MAX_PER_IP: '100000' });
});

const newUser = (label = 'upgrader') => signUp(t, `${label}-${++people}@example.com`, { ip: nextIp() });
const nextIp = () => `10.30.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`;
const staff = () => signUp(t, `upgrade-staff-${++people}@example.com`, { role: 'staff', ip: nextIp() });

/** Mints keys of a tier and gives them to a user (what claiming does, without the add-key limits). */
async function keysFor(userId: number, tier: 'LITE' | 'REGULAR' | 'PRO', count = 1): Promise<string[]> {
  const minted = await t.app.services.keys.mintKeys(tier, count);
  await t.db
    .update(licenseKeys)
    .set({ ownerId: userId, claimedAt: new Date() })
    .where(inArray(licenseKeys.apiKey, minted));
  return minted;
}

const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

async function mintTokens(path: 'LITE_TO_REGULAR' | 'REGULAR_TO_PRO' | 'LITE_TO_PRO', count: number) {
  const { token } = await staff();
  const response = await t.app.inject({
    method: 'POST',
    url: '/staff/upgrade-tokens',
    headers: auth(token),
    payload: { path, count, reason: 'test batch' },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ tokens: string[] }>().tokens;
}

const redeem = (token: string, route: 'regular' | 'pro' | 'l2p', upgradeKey: string, licenseKey: string) =>
  t.app.inject({
    method: 'POST',
    url: `/keys/upgrade/${route}`,
    headers: auth(token),
    payload: { upgradeKey, licenseKey },
    remoteAddress: nextIp(),
  });

describe('POST /upgrades/options', () => {
  it('offers a LITE key both upgrades with the §9 prices, a REGULAR key one, a PRO key none', async () => {
    const { token, id } = await newUser();
    const [lite, regular, pro] = [
      (await keysFor(id, 'LITE'))[0]!,
      (await keysFor(id, 'REGULAR'))[0]!,
      (await keysFor(id, 'PRO'))[0]!,
    ];
    const options = async (key: string) =>
      (await t.app.inject({ method: 'POST', url: '/upgrades/options', headers: auth(token), payload: { key } })).json<{
        options: { path: string; from: string; to: string; price: string; price_cents: number; priceId: string }[];
      }>().options;
    expect(await options(lite)).toEqual([
      expect.objectContaining({
        path: 'LITE_TO_REGULAR',
        from: 'LITE',
        to: 'REGULAR',
        price: '$120.00',
        price_cents: 12000,
      }),
      expect.objectContaining({ path: 'LITE_TO_PRO', from: 'LITE', to: 'PRO', price: '$320.00', price_cents: 32000 }),
    ]);
    expect(await options(regular)).toEqual([
      expect.objectContaining({ path: 'REGULAR_TO_PRO', price: '$220.00', price_cents: 22000 }),
    ]);
    expect(await options(pro)).toEqual([]);
    // The sandbox's price ids are in the catalogue from the first start.
    expect((await options(lite))[0]!.priceId).toBe('price_sandbox_lite_to_regular');
  });
});

describe('upgrade tokens', () => {
  it('staff mint tokens that are shown once and stored only as hashes; customers cannot mint', async () => {
    const tokens = await mintTokens('LITE_TO_REGULAR', 3);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(3);
    const stored = await t.db.select().from(upgradeTokens);
    const storedText = JSON.stringify(stored);
    for (const token of tokens) expect(storedText).not.toContain(token);

    const { token: customer } = await newUser();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/staff/upgrade-tokens',
      headers: auth(customer),
      payload: { path: 'LITE_TO_REGULAR', count: 1, reason: 'test batch' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
  });

  it('redeems a LITE→REGULAR token once, with the success message, a tier change and a purchased record', async () => {
    const { token, id } = await newUser();
    const [apiKey] = await keysFor(id, 'LITE');
    const [upgradeKey] = await mintTokens('LITE_TO_REGULAR', 1);
    const response = await redeem(token, 'regular', ` ${upgradeKey!.toLowerCase()} `, apiKey!);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      error: null,
      message: 'Successfully upgraded LITE to REGULAR!',
      key: { api_key: apiKey, lite: false, pro: false },
    });
    expect(await tierOf(apiKey!)).toBe('REGULAR');

    const [other] = await keysFor(id, 'LITE');
    const again = await redeem(token, 'regular', upgradeKey!, other!);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'This upgrade token has already been used.' });
    expect(await tierOf(other!)).toBe('LITE');

    const purchased = await t.app.inject({ url: '/keys/check_purchased_upgrades', headers: auth(token) });
    expect(purchased.json()).toMatchObject({
      stripe_upgrades: [],
      lite_upgrade_tokens: [expect.objectContaining({ upgrade_from: 'LITE', upgrade_to: 'REGULAR', source: 'token' })],
      l2p_upgrade_tokens: [],
    });
  });

  it('refuses a token of another path, a key at the wrong tier, an unknown token and a blank one', async () => {
    const { token, id } = await newUser();
    const [lite] = await keysFor(id, 'LITE');
    const [regular] = await keysFor(id, 'REGULAR');
    const [proToken] = await mintTokens('REGULAR_TO_PRO', 1);

    const wrongPath = await redeem(token, 'regular', proToken!, lite!);
    expect(wrongPath.statusCode).toBe(400);
    expect(wrongPath.json()).toMatchObject({ error: 'Invalid upgrade path for token redemption' });

    const [liteToken] = await mintTokens('LITE_TO_REGULAR', 1);
    const wrongTier = await redeem(token, 'regular', liteToken!, regular!);
    expect(wrongTier.statusCode).toBe(400);
    expect(wrongTier.json()).toMatchObject({ error: 'Invalid upgrade path for token redemption' });

    const unknown = await redeem(token, 'regular', 'UPG-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', lite!);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'This upgrade token is not valid. Check it and try again.' });

    const blank = await redeem(token, 'regular', '   ', lite!);
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'Please enter your upgrade token', code: 'invalid_request' });

    // Nothing moved, and the unused token still works where it belongs.
    expect(await tierOf(lite!)).toBe('LITE');
    expect(await tierOf(regular!)).toBe('REGULAR');
    expect((await redeem(token, 'pro', proToken!, regular!)).statusCode).toBe(200);
    expect(await tierOf(regular!)).toBe('PRO');
  });

  it(
    '50 concurrent redemptions of each of 20 tokens: exactly one succeeds per token',
    { timeout: 180_000 },
    async () => {
      const tokens = await mintTokens('LITE_TO_PRO', 20);
      // 50 contenders per token: 50 different LITE keys, held by 10 people (sign-ups are slow: argon2).
      const people = await Promise.all(Array.from({ length: 10 }, () => newUser('racer')));
      const keysByUser = await Promise.all(
        Array.from({ length: 50 }, (_, contender) => keysFor(people[contender % 10]!.id, 'LITE', 20)),
      );
      const redeemers = Array.from({ length: 50 }, (_, contender) => people[contender % 10]!);
      const attempts = tokens.flatMap((upgradeKey, tokenIndex) =>
        redeemers.map((user, userIndex) => redeem(user.token, 'l2p', upgradeKey, keysByUser[userIndex]![tokenIndex]!)),
      );
      const responses = await Promise.all(attempts);
      const byToken = tokens.map((_, tokenIndex) => responses.slice(tokenIndex * 50, tokenIndex * 50 + 50));
      for (const group of byToken) {
        expect(group.filter((response) => response.statusCode === 200)).toHaveLength(1);
        for (const response of group.filter((r) => r.statusCode !== 200)) {
          expect(response.statusCode).toBe(409);
          expect(response.json()).toMatchObject({ error: 'This upgrade token has already been used.' });
        }
      }
      const allKeys = keysByUser.flat();
      const upgraded = await t.db
        .select({ apiKey: licenseKeys.apiKey })
        .from(licenseKeys)
        .where(sql`${inArray(licenseKeys.apiKey, allKeys)} and ${licenseKeys.tier} = 'PRO'`);
      expect(upgraded).toHaveLength(20);
      const ids = (
        await t.db.select({ id: licenseKeys.id }).from(licenseKeys).where(inArray(licenseKeys.apiKey, allKeys))
      ).map((row) => row.id);
      expect(
        await t.db.select().from(licenseKeyTierChanges).where(inArray(licenseKeyTierChanges.licenseKeyId, ids)),
      ).toHaveLength(20);
      expect(
        await t.db.select().from(purchasedUpgrades).where(inArray(purchasedUpgrades.licenseKeyId, ids)),
      ).toHaveLength(20);
    },
  );
});

describe("ownership: another user's key is never reachable", () => {
  it('answers 404 License key not found. on every upgrade route', async () => {
    const owner = await newUser('owner');
    const stranger = await newUser('stranger');
    const [apiKey] = await keysFor(owner.id, 'LITE');
    const [upgradeKey] = await mintTokens('LITE_TO_REGULAR', 1);

    const options = await t.app.inject({
      method: 'POST',
      url: '/upgrades/options',
      headers: auth(stranger.token),
      payload: { key: apiKey },
    });
    expect(options.statusCode).toBe(404);
    expect(options.json()).toEqual({ error: 'License key not found.', code: 'key_not_found' });

    for (const route of ['regular', 'pro', 'l2p'] as const) {
      const response = await redeem(stranger.token, route, upgradeKey!, apiKey!);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'License key not found.', code: 'key_not_found' });
    }
    expect(await tierOf(apiKey!)).toBe('LITE');
    // The token was not spent by the refused attempts.
    expect((await redeem(owner.token, 'regular', upgradeKey!, apiKey!)).statusCode).toBe(200);
  });

  it('keeps the staff catalogue routes to staff', async () => {
    const { token } = await newUser();
    expect((await t.app.inject({ url: '/staff/upgrade-prices', headers: auth(token) })).statusCode).toBe(403);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/staff/upgrade-prices',
      headers: auth(token),
      payload: { prices: [{ path: 'LITE_TO_REGULAR', amount_cents: 100, price_id: null }] },
    });
    expect(put.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/staff/upgrade-prices' })).statusCode).toBe(401);
  });
});

describe('staff prices', () => {
  it('changes a price and its provider price id; the options follow', async () => {
    const { token: staffToken } = await staff();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/staff/upgrade-prices',
      headers: auth(staffToken),
      payload: { prices: [{ path: 'REGULAR_TO_PRO', amount_cents: 25000, price_id: null }], reason: 'test price' },
    });
    expect(saved.statusCode).toBe(200);
    const { token, id } = await newUser();
    const [regular] = await keysFor(id, 'REGULAR');
    const options = await t.app.inject({
      method: 'POST',
      url: '/upgrades/options',
      headers: auth(token),
      payload: { key: regular },
    });
    expect(options.json()).toMatchObject({ options: [{ path: 'REGULAR_TO_PRO', price: '$250.00', priceId: null }] });
    // Put it back for the other tests of this file.
    await t.app.inject({
      method: 'PUT',
      url: '/staff/upgrade-prices',
      headers: auth(staffToken),
      payload: {
        prices: [{ path: 'REGULAR_TO_PRO', amount_cents: 22000, price_id: 'price_sandbox_regular_to_pro' }],
        reason: 'test price back',
      },
    });
  });
});

// Last: it builds a second app, which empties the shared test database.
describe('upgrade token rate limit', () => {
  it('is rate-limited per user, so tokens cannot be found by trying', async () => {
    const limited = await createTestApp({
      UPGRADE_TOKEN_RATE_LIMIT_MAX: '3',
      UPGRADE_TOKEN_RATE_LIMIT_MAX_PER_IP: '100',
    });
    const user = await signUp(limited, `limited-${++people}@example.com`);
    const [apiKey] = await limited.app.services.keys.mintKeys('LITE', 1);
    await limited.db.update(licenseKeys).set({ ownerId: user.id }).where(eq(licenseKeys.apiKey, apiKey!));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await limited.app.inject({
        method: 'POST',
        url: '/keys/upgrade/regular',
        headers: auth(user.token),
        payload: { upgradeKey: `UPG-AAAAA-BBBBB-CCCCC-DDDDD-EEEE${i}`, licenseKey: apiKey },
        remoteAddress: nextIp(),
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.headers['retry-after']).toBeDefined();
        expect(response.json()).toMatchObject({ code: 'rate_limited' });
      }
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});
