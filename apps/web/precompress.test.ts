import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { ResolvedConfig } from 'vite';
import { afterEach, expect, it } from 'vitest';
import { precompress } from './precompress.ts';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

async function build(files: Record<string, Buffer>): Promise<string> {
  root = await mkdtemp(path.join(os.tmpdir(), 'keyport-precompress-'));
  const dist = path.join(root, 'dist');
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dist, name)), { recursive: true });
    await writeFile(path.join(dist, name), bytes);
  }
  const plugin = precompress();
  const configResolved = plugin.configResolved as (config: ResolvedConfig) => void;
  const closeBundle = plugin.closeBundle as () => Promise<void>;
  configResolved({ root, build: { outDir: 'dist' } } as ResolvedConfig);
  await closeBundle();
  return dist;
}

it('writes a .br and a .gz beside every compressible file of the build, each decoding to the same bytes', async () => {
  const script = Buffer.from('export const clé = "Schlüssel";\n'.repeat(300), 'utf8');
  const styles = Buffer.from('.card{padding:1rem}\n'.repeat(100), 'utf8');
  const html = Buffer.from(`<!doctype html><title>Keyport</title>${'<!-- x -->'.repeat(80)}`, 'utf8');
  const dist = await build({
    'index.html': html,
    'assets/index-Ab12_cD-.js': script,
    'assets/index-Zx98yW76.css': styles,
    'assets/index-Ab12_cD-.js.map': Buffer.from('{"mappings":""}'.repeat(100)),
    'assets/logo-12345678.png': Buffer.alloc(4096, 7),
    'favicon.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });
  for (const [name, original] of [
    ['index.html', html],
    ['assets/index-Ab12_cD-.js', script],
    ['assets/index-Zx98yW76.css', styles],
  ] as const) {
    const br = await readFile(path.join(dist, `${name}.br`));
    const gz = await readFile(path.join(dist, `${name}.gz`));
    expect(zlib.brotliDecompressSync(br).equals(original), name).toBe(true);
    expect(zlib.gunzipSync(gz).equals(original), name).toBe(true);
    expect(br.length).toBeLessThan(gz.length);
    expect(gz.length).toBeLessThan(original.length);
  }
  // Images, source maps and files too small to gain anything get no variants.
  const written = (await readdir(dist, { recursive: true })).filter((name) => /\.(?:br|gz)$/.test(name));
  expect(written.sort()).toEqual(
    [
      'assets/index-Ab12_cD-.js.br',
      'assets/index-Ab12_cD-.js.gz',
      'assets/index-Zx98yW76.css.br',
      'assets/index-Zx98yW76.css.gz',
      'index.html.br',
      'index.html.gz',
    ].map((name) => name.split('/').join(path.sep)),
  );
});
