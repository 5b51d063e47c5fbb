import { describe, expect, it } from 'vitest';
import { formatTimeAgo } from './format-time-ago';

const NOW = new Date('2026-11-23T12:00:00Z');
const before = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

describe('formatTimeAgo', () => {
  it.each([
    [0, 'just now'],
    [59, 'just now'],
    [-30, 'just now'],
    [60, '1 minute ago'],
    [45 * 60, '45 minutes ago'],
    [3 * 3600 + 59 * 60, '3 hours ago'],
    [24 * 3600, 'yesterday'],
    [3 * 24 * 3600, '3 days ago'],
    [15 * 24 * 3600, '2 weeks ago'],
    [62 * 24 * 3600, '2 months ago'],
    [400 * 24 * 3600, 'last year'],
  ])('%i seconds before is "%s"', (seconds, text) => {
    expect(formatTimeAgo(before(seconds), NOW)).toBe(text);
  });
});
