import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats worth compressing (images, fonts and zips are compressed already). Source maps are left out. */
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest|wasm)$/;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible file of the build
 * once it is written, so the server picks one by Accept-Encoding without compressing at request time
 * (apps/server/src/http/static-assets.ts). A variant that would not be smaller than the file is not written.
 */
export function precompress({ minBytes = 512 }: { minBytes?: number } = {}): Plugin {
  let outDir = '';
  return {
    name: 'keyport:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(files.map((file) => writeVariants(file, minBytes)));
    },
  };
}

async function writeVariants(file: string, minBytes: number): Promise<void> {
  const content = await fs.readFile(file);
  if (content.length < minBytes) return;
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzip(content, { level: 9 }),
  ]);
  await Promise.all([
    br.length < content.length ? fs.writeFile(`${file}.br`, br) : null,
    gz.length < content.length ? fs.writeFile(`${file}.gz`, gz) : null,
  ]);
}
