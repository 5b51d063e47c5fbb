import { describe, expect, it } from 'vitest';
import { workersArgument } from '../src/cluster';

describe('npm start -- --workers N', () => {
  it.each([
    [['--workers', '4'], '4'],
    [['--workers=2'], '2'],
    [['--other', '--workers', '3'], '3'],
    [['--workers'], ''],
    [[], null],
    [['--port', '3000'], null],
  ])('%j → %j', (args, expected) => {
    expect(workersArgument(args)).toBe(expected);
  });
});
