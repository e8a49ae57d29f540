import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';

/**
 * Reads the single `image` file of a multipart upload. Oversized files are 413, anything
 * that is not a well-formed multipart body with that field is 400.
 */
export async function readUploadedFile(request: FastifyRequest, field: string, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw new ApiError(415, ErrorCode.UnsupportedMediaType, 'Send the image as multipart/form-data');
  }
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024 } })) {
      if (part.type === 'file' && part.fieldname === field) {
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw ApiError.payloadTooLarge(maxBytes);
        return bytes;
      }
      if (part.type === 'file') await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || (error as { statusCode?: number }).statusCode === 413) {
      throw ApiError.payloadTooLarge(maxBytes);
    }
    throw ApiError.badRequest('The multipart body is malformed');
  }
  throw ApiError.validation('No image was sent', [{ message: `a file field named "${field}" is required`, code: 'required', fields: field }]);
}
