import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

afterEach(() => sessionStorage.clear());
// Each test is a fresh page load (the view is read once per load).
beforeEach(() => vi.resetModules());
const load = () => import('./return-view');

describe('the dashboard view kept across a payment page', () => {
  it("keeps the dashboard's search and page, not its dialog, for the return's page load only", async () => {
    const before = await load();
    before.rememberReturnView({ pathname: '/customer/my-keys', search: '?q=harbor&page=2&dialog=upgrade&key=7' });
    vi.resetModules();
    const { restoreReturnView } = await load();
    expect(restoreReturnView(new URLSearchParams('')).toString()).toBe('q=harbor&page=2');
    expect(restoreReturnView(new URLSearchParams('')).toString()).toBe('q=harbor&page=2'); // React's second effect
    vi.resetModules();
    expect((await load()).restoreReturnView(new URLSearchParams('')).toString()).toBe(''); // a later page load
  });

  it('never overrides what the return URL says', async () => {
    const { rememberReturnView, restoreReturnView } = await load();
    rememberReturnView({ pathname: '/customer/my-keys', search: '?q=harbor&page=2' });
    expect(restoreReturnView(new URLSearchParams('q=other')).toString()).toBe('q=other&page=2');
  });

  it('remembers nothing from another page', async () => {
    const { rememberReturnView, restoreReturnView } = await load();
    rememberReturnView({ pathname: '/customer/my-keys/7', search: '?q=harbor' });
    expect(restoreReturnView(new URLSearchParams('')).toString()).toBe('');
  });
});
