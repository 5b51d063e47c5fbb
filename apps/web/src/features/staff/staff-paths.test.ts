import { describe, expect, it } from 'vitest';
import readme from '../../../../../README.md?raw';
import { staffPaths } from './staff-paths';

const pages = new Set<string>(Object.values(staffPaths).filter((path) => typeof path === 'string'));

describe('staff paths in the README', () => {
  it('every /staff/… path the README sends people to (not an API call like `POST /staff/x`) is a console page', () => {
    const mentions = [...readme.matchAll(/(GET |POST |PUT |DELETE |PATCH )?`?(\/staff\/[a-z0-9-]+)/g)];
    const pagesNamed = mentions.filter(([, verb]) => verb === undefined).map(([, , path]) => path!);
    expect(pagesNamed.length).toBeGreaterThan(0);
    for (const path of pagesNamed) expect(pages, `README names ${path} as a page`).toContain(path);
  });
});
