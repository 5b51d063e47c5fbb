import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safe-next';

describe('safeNextPath', () => {
  it.each([
    [null, '/customer/my-keys'],
    ['', '/customer/my-keys'],
    ['/customer/my-keys/3', '/customer/my-keys/3'],
    ['//evil.example', '/customer/my-keys'],
    ['/\\evil.example', '/customer/my-keys'],
    ['https://evil.example/x', '/customer/my-keys'],
  ])('%s → %s', (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });
});
