import { describe, expect, it } from 'vitest';
import { tokensCsv, tokensCsvName } from './tokens-csv';

describe('tokensCsv', () => {
  it('writes a header and one CRLF row per token with its path', () => {
    expect(tokensCsv('LITE_TO_PRO', ['UPG-AAAAA-BBBBB', 'UPG-CCCCC-DDDDD'])).toBe(
      'token,path\r\nUPG-AAAAA-BBBBB,LITE_TO_PRO\r\nUPG-CCCCC-DDDDD,LITE_TO_PRO\r\n',
    );
  });

  it('names the file after the path and the time, without colons', () => {
    expect(tokensCsvName('REGULAR_TO_PRO', new Date('2026-11-23T17:40:05.123Z'))).toBe(
      'upgrade-tokens-REGULAR_TO_PRO-2026-11-23T17-40-05.csv',
    );
  });
});
