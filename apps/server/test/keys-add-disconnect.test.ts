import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { licenseKeys } from '../src/db/schema';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let users = 0;
let ips = 0;

// Small limits so the rate-limit tests stay short; every other request comes from its own address.
beforeAll(async () => {
  t = await createTestApp({
    ADD_KEY_RATE_LIMIT_MAX: '5',
    ADD_KEY_RATE_LIMIT_MAX_PER_IP: '12',
    ADD_KEY_RATE_LIMIT_WINDOW_SECONDS: '900',
  });
});

const newUser = () => signUp(t, `keys-user-${++users}@example.com`);
const nextIp = () => `10.20.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`;
const mintKey = async () => (await t.app.services.keys.mintKeys('PRO', 1))[0]!;
const rowOf = async (apiKey: string) =>
  (await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, apiKey)))[0];

const addKey = (token: string, key: unknown, ip = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/keys/', headers: auth(token), payload: { key }, remoteAddress: ip });
const disconnect = (token: string, apiKey: string) =>
  t.app.inject({ method: 'POST', url: '/keys/delete', headers: auth(token), payload: { apiKey } });

describe('POST /keys/ (Add Existing License Key)', () => {
  it('claims an unclaimed key, accepting it trimmed and in lower case, and lists it', async () => {
    const { token, id } = await newUser();
    const apiKey = await mintKey();
    const response = await addKey(token, `  ${apiKey.toLowerCase()}\n`);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      key: {
        id: expect.any(Number),
        api_key: apiKey,
        pro: true,
        lite: false,
        linked_app_store: null,
        main_url: null,
        myshopify: null,
        secondary_url: null,
      },
    });
    expect(await rowOf(apiKey)).toMatchObject({ ownerId: id, claimedAt: expect.any(Date) });
    const list = (await t.app.inject({ url: '/keys/', headers: auth(token) })).json<{ api_key: string }[]>();
    expect(list.map((key) => key.api_key)).toEqual([apiKey]);
  });

  it("answers an empty or blank key with the spec's message", async () => {
    const { token } = await newUser();
    for (const key of ['', '   ']) {
      const response = await addKey(token, key);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'Please enter a license key to import.' });
    }
  });

  it('answers an unknown key with 404', async () => {
    const { token } = await newUser();
    const response = await addKey(token, 'NOPE0-NOPE0-NOPE0-NOPE0-NOPE0');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'License key not found. Check the key and try again.' });
  });

  it("refuses another account's key with 409 and leaves it with its owner", async () => {
    const owner = await newUser();
    const other = await newUser();
    const apiKey = await mintKey();
    expect((await addKey(owner.token, apiKey)).statusCode).toBe(201);
    const response = await addKey(other.token, apiKey);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'This license key is already registered to another account.' });
    expect((await rowOf(apiKey))?.ownerId).toBe(owner.id);
  });

  it('answers a key already in the account with 409', async () => {
    const { token } = await newUser();
    const apiKey = await mintKey();
    expect((await addKey(token, apiKey)).statusCode).toBe(201);
    for (const again of [apiKey, apiKey.toLowerCase()]) {
      const response = await addKey(token, again);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: 'This license key is already in your account.' });
    }
  });

  it('gives a key to exactly one of ten people adding it at the same moment', async () => {
    const people = await Promise.all(Array.from({ length: 10 }, newUser));
    const apiKey = await mintKey();
    const responses = await Promise.all(people.map((person) => addKey(person.token, apiKey)));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    const winner = people[statuses.indexOf(201)]!;
    expect((await rowOf(apiKey))?.ownerId).toBe(winner.id);
  });

  it('limits attempts per user, failed or not, across addresses (429 with Retry-After)', async () => {
    const { token } = await newUser();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await addKey(token, `GUESS-GUESS-GUESS-GUESS-0000${i}`);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
    // The limit holds for a real key too, so guessing cannot carry on through it.
    expect((await addKey(token, await mintKey())).statusCode).toBe(429);
  });

  it('limits attempts per address across accounts', async () => {
    const people = await Promise.all(Array.from({ length: 5 }, newUser));
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const response = await addKey(people[i % people.length]!.token, `GUESS-GUESS-GUESS-IPIPI-000${i}`, '10.30.0.1');
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 12).every((status) => status === 404)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });

  it('needs a session', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/keys/', payload: { key: await mintKey() } });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /keys/delete (disconnect)', () => {
  it("releases the owner's key and clears its store, so another account can add it", async () => {
    const owner = await newUser();
    const apiKey = await mintKey();
    expect((await addKey(owner.token, apiKey)).statusCode).toBe(201);
    await t.db
      .update(licenseKeys)
      .set({
        linkedAppStore: 'shop.myshopify.com',
        mainUrl: 'https://shop.com',
        myshopify: 'shop.myshopify.com',
        secondaryUrl: 'https://shop.co.uk',
      })
      .where(eq(licenseKeys.apiKey, apiKey));

    const response = await disconnect(owner.token, apiKey);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(await rowOf(apiKey)).toMatchObject({
      ownerId: null,
      linkedAppStore: null,
      mainUrl: null,
      myshopify: null,
      secondaryUrl: null,
      claimedAt: null,
    });
    expect((await t.app.inject({ url: '/keys/', headers: auth(owner.token) })).json()).toEqual([]);

    const next = await newUser();
    const added = await addKey(next.token, apiKey);
    expect(added.statusCode).toBe(201);
    expect(added.json().key).toMatchObject({ api_key: apiKey, main_url: null, myshopify: null });
  });

  it("answers someone else's key with 404 and leaves it exactly as it was", async () => {
    const owner = await newUser();
    const other = await newUser();
    const apiKey = await mintKey();
    expect((await addKey(owner.token, apiKey)).statusCode).toBe(201);
    await t.db.update(licenseKeys).set({ mainUrl: 'https://kept.com' }).where(eq(licenseKeys.apiKey, apiKey));
    const before = await rowOf(apiKey);

    const response = await disconnect(other.token, apiKey);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'License key not found.' });
    expect(await rowOf(apiKey)).toEqual(before);
  });

  it('answers an unknown or unclaimed key with 404', async () => {
    const { token } = await newUser();
    for (const apiKey of ['NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', await mintKey()]) {
      const response = await disconnect(token, apiKey);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'License key not found.' });
    }
  });

  it('needs a session', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/keys/delete', payload: { apiKey: 'X' } });
    expect(response.statusCode).toBe(401);
  });
});
