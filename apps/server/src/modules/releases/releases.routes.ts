import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as contracts from '@keyport/shared/contracts/releases';
import { AppError } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { chooseRange } from './byte-range';
import { multipartLimits, receiveReleaseUpload } from './release-upload';
import { toRelease, type ReleaseDownload, type SignedDownload } from './releases.service';

export const RANGE_NOT_SATISFIABLE = 'The requested range is not satisfiable.';

export interface ReleasesRoutesOptions {
  /** Where uploads are written while they are checked (DATA_DIR/tmp: the same disk as local storage). */
  uploadDir: string;
  maxZipBytes: number;
}

/**
 * §7 releases and downloads: staff upload, list, detail and current choice; release info with a signed link; the three
 * download routes.
 */
export async function releasesRoutes(app: FastifyInstance, options: ReleasesRoutesOptions) {
  const releases = app.services.releases;

  // Multipart parsing exists only inside this plugin, for the upload route.
  await app.register(async (upload) => {
    await upload.register(multipart, { limits: multipartLimits(options.maxZipBytes) });
    registerRoute(upload, contracts.uploadRelease, async ({ user }, request) => {
      await mkdir(options.uploadDir, { recursive: true });
      const zipPath = path.join(options.uploadDir, `upload-${randomBytes(12).toString('hex')}.zip`);
      try {
        const fields = await receiveReleaseUpload(request, zipPath, options.maxZipBytes);
        const row = await releases.publishRelease({ ...fields, zipPath, createdBy: user.id });
        return { release: toRelease(row) };
      } finally {
        await rm(zipPath, { force: true });
      }
    });
  });

  registerRoute(app, contracts.staffListReleases, ({ query }) => releases.listEditionReleases(query.edition));
  registerRoute(app, contracts.staffGetRelease, ({ params }) => releases.staffReleaseDetail(Number(params.id)));
  registerRoute(app, contracts.staffMakeReleaseCurrent, async ({ user, params, body }) => ({
    release: await releases.makeReleaseCurrent(user.id, Number(params.id), body.reason),
  }));

  registerRoute(app, contracts.getReleases, async ({ user, body }) => ({
    result: await releases.getReleaseInfo(user.id, body.key),
  }));

  registerRoute(app, contracts.downloadRelease, async ({ params, query }, request, reply) =>
    signedLinkReply(request, reply, await releases.findSignedDownload({ id: params.id, ...query })),
  );

  registerRoute(app, contracts.downloadWithToken, async ({ user, body }, request, reply) =>
    zipReply(
      reply,
      await releases.openTokenDownload(user.id, {
        downloadUrl: body.downloadUrl,
        token: body.token,
        requestHost: request.host,
      }),
    ),
  );

  registerRoute(app, contracts.proxyDownload, async ({ user, body }, request, reply) =>
    zipReply(reply, await releases.openProxyDownload(user.id, { url: body.url, requestHost: request.host })),
  );
}

/**
 * The signed link's answer: HEAD describes the zip and counts nothing; GET sends it whole, or one byte range of it
 * (Range is defined for GET only, RFC 9110 §14.2).
 */
async function signedLinkReply(request: FastifyRequest, reply: FastifyReply, file: SignedDownload): Promise<Readable> {
  const whole = { contentLength: file.size, filename: file.filename };
  if (request.method === 'HEAD') {
    // Fastify drops the body of a HEAD answer; an empty stream (unlike no body) keeps this Content-Length.
    return zipReply(reply, { ...whole, stream: Readable.from([]) }, file);
  }
  const range = chooseRange({ range: request.headers.range, ifRange: firstValue(request.headers['if-range']) }, file);
  if (range.kind === 'unsatisfiable') {
    throw new AppError(416, RANGE_NOT_SATISFIABLE, 'range_not_satisfiable', {
      'content-range': `bytes */${file.size}`,
    });
  }
  if (range.kind === 'full') return zipReply(reply, { ...whole, stream: await file.open() }, file);
  const stream = await file.open({ start: range.start, end: range.end });
  zipReply(reply, { ...whole, stream, contentLength: range.end - range.start + 1 }, file);
  reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
  return stream;
}

/**
 * Sets the zip's status and headers and answers its stream: the route returns it and Fastify sends it, once. The
 * signed link also says it takes ranges, with the file's ETag.
 */
function zipReply(reply: FastifyReply, download: ReleaseDownload, ranges?: { etag: string }): Readable {
  reply
    .code(200)
    .header('content-type', 'application/zip')
    .header('content-length', String(download.contentLength))
    .header('content-disposition', `attachment; filename="${download.filename}"`)
    .header('cache-control', 'private, no-store');
  if (ranges) reply.header('accept-ranges', 'bytes').header('etag', ranges.etag);
  return download.stream;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
