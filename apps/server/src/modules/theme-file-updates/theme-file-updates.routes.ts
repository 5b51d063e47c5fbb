import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as contracts from '@keyport/shared/contracts/theme-file-updates';
import { registerRoute } from '../../http/route';
import { receiveThemeFileUpdateUpload, themeUploadLimits } from './theme-file-update-upload';
import type { RunFile } from './theme-file-updates.service';

export interface ThemeFileUpdatesRoutesOptions {
  /** Where uploads are written while the engine reads them (DATA_DIR/tmp). */
  uploadDir: string;
  /** The same upload limit as release zips. */
  maxZipBytes: number;
}

/**
 * Issue 10/20: upgradable keys, theme-file update runs (jobs, ADR 041), their reports and downloads (owner only).
 * Each run route also answers at its path before the rename, `/theme-upgrades…`, for one release (ADR 044).
 */
export async function themeFileUpdatesRoutes(app: FastifyInstance, options: ThemeFileUpdatesRoutesOptions) {
  const service = app.services.themeFileUpdates;

  registerRoute(app, contracts.listKeysUpgrade, ({ user }) => service.listUpgradableKeys(user.id));

  for (const contract of [contracts.previewThemeFileUpdate, contracts.previewThemeFileUpdateAtOldPath]) {
    registerRoute(app, contract, ({ user, query }) =>
      service.preview(user.id, { targetKey: query.target_key, sourceKey: query.source_key }),
    );
  }

  await app.register(async (upload) => {
    await upload.register(multipart, { limits: themeUploadLimits(options.maxZipBytes) });
    for (const contract of [contracts.createThemeFileUpdate, contracts.createThemeFileUpdateAtOldPath]) {
      registerRoute(upload, contract, async ({ user }, request) => {
        await mkdir(options.uploadDir, { recursive: true });
        const zipPath = path.join(options.uploadDir, `theme-file-update-${randomBytes(12).toString('hex')}.zip`);
        try {
          const fields = await receiveThemeFileUpdateUpload(request, zipPath, options.maxZipBytes);
          const run = await service.startRun(user.id, {
            targetKey: fields.target_key,
            sourceKey: fields.source_key,
            moveConnection: fields.move_connection,
            ...(fields.consent_store ? { consentStore: fields.consent_store } : {}),
            zipPath,
          });
          return { run };
        } finally {
          await rm(zipPath, { force: true });
        }
      });
    }
  });

  for (const contract of [contracts.listThemeFileUpdates, contracts.listThemeFileUpdatesAtOldPath]) {
    registerRoute(app, contract, ({ user, query }) => service.listRuns(user.id, query.key));
  }

  for (const contract of [contracts.getThemeFileUpdate, contracts.getThemeFileUpdateAtOldPath]) {
    registerRoute(app, contract, ({ user, params }) => service.getRun(user.id, Number(params.id)));
  }

  for (const contract of [contracts.cancelThemeFileUpdate, contracts.cancelThemeFileUpdateAtOldPath]) {
    registerRoute(app, contract, ({ user, params }) => service.cancelRun(user.id, Number(params.id)));
  }

  for (const contract of [contracts.downloadThemeFileUpdateZip, contracts.downloadThemeFileUpdateZipAtOldPath]) {
    registerRoute(app, contract, async ({ user, params }, _request, reply) =>
      fileReply(reply, await service.openOutput(user.id, Number(params.id)), 'application/zip'),
    );
  }

  for (const contract of [contracts.downloadThemeFileUpdateReview, contracts.downloadThemeFileUpdateReviewAtOldPath]) {
    registerRoute(app, contract, async ({ user, params }, _request, reply) =>
      fileReply(reply, await service.openReview(user.id, Number(params.id)), 'application/zip'),
    );
  }

  for (const contract of [
    contracts.downloadThemeFileUpdateReportJson,
    contracts.downloadThemeFileUpdateReportJsonAtOldPath,
  ]) {
    registerRoute(app, contract, async ({ user, params }, _request, reply) => {
      const report = await service.getReport(user.id, Number(params.id));
      reply
        .header('content-disposition', `attachment; filename="theme-upgrade-${params.id}-report.json"`)
        .header('cache-control', 'private, no-store');
      return report;
    });
  }

  for (const contract of [
    contracts.downloadThemeFileUpdateReportHtml,
    contracts.downloadThemeFileUpdateReportHtmlAtOldPath,
  ]) {
    registerRoute(app, contract, async ({ user, params }, _request, reply) =>
      fileReply(reply, await service.openReportHtml(user.id, Number(params.id)), 'text/html; charset=utf-8'),
    );
  }
}

function fileReply(reply: FastifyReply, file: RunFile, type: string): Readable {
  reply
    .code(200)
    .header('content-type', type)
    .header('content-length', String(file.contentLength))
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store');
  return file.stream;
}
