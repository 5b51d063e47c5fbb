// docs/architecture.md's map is true (issue 21): every server module, integration and web feature folder is a row
// of "The map", no row names a folder that is gone, and every table of the schema is named once, under the owner
// ESLint's table-owner rule gives it (eslint.config.js `TABLE_OWNERS`).
import fs from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../apps/server/src/db/schema';
import { TABLE_OWNERS } from '../eslint.config.js';

const root = path.resolve(import.meta.dirname, '..');

function folders(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The rows of the map's tables: first cell `kind/name`, second cell the tables (backticked) or "—". */
export function mapRows(markdown: string): { kind: string; name: string; tables: string[] }[] {
  const start = markdown.indexOf('\n## The map\n');
  if (start < 0) throw new Error('docs/architecture.md has no "## The map" section');
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const rows: { kind: string; name: string; tables: string[] }[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const folder = /^`(modules|integrations|features)\/([\w-]+)`$/.exec(cells[1] ?? '');
    if (!folder) continue;
    const tables = folder[1] === 'features' ? [] : [...(cells[2] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    rows.push({ kind: folder[1]!, name: folder[2]!, tables });
  }
  return rows;
}

const rows = mapRows(fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8'));
const named = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.name);

describe('docs/architecture.md, the map', () => {
  it.each([
    ['modules', 'apps/server/src/modules'],
    ['integrations', 'apps/server/src/integrations'],
    ['features', 'apps/web/src/features'],
  ])('names every %s folder once, and none that is gone', (kind, dir) => {
    expect(named(kind).sort()).toEqual(folders(dir));
  });

  it('names every table of the schema once, and only those', () => {
    const tables = Object.values(schema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableName(table as PgTable))
      .sort();
    expect(tables.length).toBeGreaterThan(30);
    expect(rows.flatMap((row) => row.tables).sort()).toEqual(tables);
  });

  it("puts each table under the owner ESLint's table-owner rule gives it", () => {
    const ownerOf = new Map(rows.flatMap((row) => row.tables.map((table) => [table, row] as const)));
    for (const [exportName, owner] of Object.entries(TABLE_OWNERS)) {
      const table = (schema as Record<string, unknown>)[exportName];
      expect(is(table, PgTable), `${exportName} is a table of db/schema`).toBe(true);
      const row = ownerOf.get(getTableName(table as PgTable));
      expect(row && `${row.kind}/${row.name}`, exportName).toBe(`modules/${owner}`);
    }
  });

  it('reads a row only from the map section, by its folder cell', () => {
    const doc = [
      '# A',
      '| `modules/elsewhere` | `x` |',
      '## The map',
      '| Server module | Tables |',
      '| --- | --- |',
      '| `modules/shop` | `carts`, `cart_lines` |',
      '| `modules/staff` | — |',
      '| `features/cart` | the cart |',
      '## Next',
      '| `modules/later` | `y` |',
    ].join('\n');
    expect(mapRows(doc)).toEqual([
      { kind: 'modules', name: 'shop', tables: ['carts', 'cart_lines'] },
      { kind: 'modules', name: 'staff', tables: [] },
      { kind: 'features', name: 'cart', tables: [] },
    ]);
  });
});
