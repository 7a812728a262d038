import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  LIMITS,
  UPLOAD_MAX_FILES,
  UPLOAD_MESSAGES,
  deleteUploadsResponseSchema,
  deleteUploadsSchema,
  uploadListSchema,
  uploadResponseSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError } from '#server/lib/errors.ts';
import { perIp } from '#server/lib/rate-limit.ts';
import { receiveImages } from './uploads.receive.ts';
import { deleteImages, listImages } from './uploads.service.ts';

const tags = ['uploads (admin)'];
const security = [{ bearer: [] }];
const params = z.object({ folder: z.string().max(200) });

/** Gallery images (JPG/PNG up to 5 MB, checked by their bytes) under $DATA_DIR/uploads/{folder}, admin only. */
export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const uploadsDir = path.join(app.config.dataDir, 'uploads');
  const onRequest = app.requireAdmin;

  // only this plugin reads multipart bodies; the size limit cuts a file off (counted as skipped, not a 413)
  await app.register(fastifyMultipart, {
    limits: { fileSize: LIMITS.uploadBytes, files: UPLOAD_MAX_FILES, fields: 20, parts: UPLOAD_MAX_FILES + 20 },
    throwFileSizeLimit: false,
  });

  app.get(
    '/api/upload/list/:folder',
    {
      onRequest,
      schema: { tags, security, summary: 'Images of a gallery folder', params, response: { 200: uploadListSchema } },
    },
    async (req) => listImages(uploadsDir, req.params.folder),
  );

  app.post(
    '/api/upload/:folder',
    {
      onRequest,
      config: perIp(app.config.rateLimits.upload.ip),
      schema: {
        tags,
        security,
        summary: `Upload JPG/PNG images (multipart field "files", up to ${UPLOAD_MAX_FILES}, 5 MB each) as WebP`,
        consumes: ['multipart/form-data'],
        params,
        response: { 200: uploadResponseSchema },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw new BadRequestError(UPLOAD_MESSAGES.notMultipart);
      return receiveImages(req.parts(), uploadsDir, req.params.folder, req.log);
    },
  );

  app.delete(
    '/api/upload/:folder',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Delete images of a gallery folder (every width of each)',
        params,
        body: deleteUploadsSchema,
        response: { 200: deleteUploadsResponseSchema },
      },
    },
    async (req) => {
      const deleted = await deleteImages(uploadsDir, req.params.folder, req.body.srcs);
      return { deleted, message: `Deleted ${deleted.length} image(s).` };
    },
  );
};
