import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as contracts from '@keyport/shared/contracts/theme-upgrades';
import { registerRoute } from '../../http/route';
import { receiveThemeUpgradeUpload, themeUploadLimits } from './theme-upgrade-upload';
import type { RunFile } from './theme-upgrades.service';

export interface ThemeUpgradesRoutesOptions {
  /** Where uploads are written while the engine reads them (DATA_DIR/tmp). */
  uploadDir: string;
  /** The same upload limit as release zips. */
  maxZipBytes: number;
}

/** Issue 10/20: upgradable keys, theme-file upgrade runs (jobs, ADR 041), their reports and downloads (owner only). */
export async function themeUpgradesRoutes(app: FastifyInstance, options: ThemeUpgradesRoutesOptions) {
  const service = app.services.themeUpgrades;

  registerRoute(app, contracts.listKeysUpgrade, ({ user }) => service.listUpgradableKeys(user.id));

  registerRoute(app, contracts.previewThemeUpgrade, ({ user, query }) =>
    service.preview(user.id, { targetKey: query.target_key, sourceKey: query.source_key }),
  );

  await app.register(async (upload) => {
    await upload.register(multipart, { limits: themeUploadLimits(options.maxZipBytes) });
    registerRoute(upload, contracts.createThemeUpgrade, async ({ user }, request) => {
      await mkdir(options.uploadDir, { recursive: true });
      const zipPath = path.join(options.uploadDir, `theme-upgrade-${randomBytes(12).toString('hex')}.zip`);
      try {
        const fields = await receiveThemeUpgradeUpload(request, zipPath, options.maxZipBytes);
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
  });

  registerRoute(app, contracts.listThemeUpgrades, ({ user, query }) => service.listRuns(user.id, query.key));

  registerRoute(app, contracts.getThemeUpgrade, ({ user, params }) => service.getRun(user.id, Number(params.id)));

  registerRoute(app, contracts.cancelThemeUpgrade, ({ user, params }) => service.cancelRun(user.id, Number(params.id)));

  registerRoute(app, contracts.downloadThemeUpgradeZip, async ({ user, params }, _request, reply) =>
    fileReply(reply, await service.openOutput(user.id, Number(params.id)), 'application/zip'),
  );

  registerRoute(app, contracts.downloadThemeUpgradeReview, async ({ user, params }, _request, reply) =>
    fileReply(reply, await service.openReview(user.id, Number(params.id)), 'application/zip'),
  );

  registerRoute(app, contracts.downloadThemeUpgradeReportJson, async ({ user, params }, _request, reply) => {
    const report = await service.getReport(user.id, Number(params.id));
    reply
      .header('content-disposition', `attachment; filename="theme-upgrade-${params.id}-report.json"`)
      .header('cache-control', 'private, no-store');
    return report;
  });

  registerRoute(app, contracts.downloadThemeUpgradeReportHtml, async ({ user, params }, _request, reply) =>
    fileReply(reply, await service.openReportHtml(user.id, Number(params.id)), 'text/html; charset=utf-8'),
  );
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
