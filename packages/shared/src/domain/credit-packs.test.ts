import { describe, expect, it } from 'vitest';
import { creditsLabel, keyportCreditsLabel } from './credit-packs';

describe('credit labels', () => {
  it.each([
    [1, '1 credit', '1 Keyport credit'],
    [5, '5 credits', '5 Keyport credits'],
    [12, '12 credits', '12 Keyport credits'],
  ])('%i → %s / %s', (credits, plain, keyport) => {
    expect(creditsLabel(credits)).toBe(plain);
    expect(keyportCreditsLabel(credits)).toBe(keyport);
  });
});
