import type { FastifyInstance, FastifyRequest } from 'fastify';

export const CSV_MEDIA_TYPE = 'text/csv';

/** `text/csv` request bodies arrive as a string (within the global body limit); the route parses them. */
export function registerCsvBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(CSV_MEDIA_TYPE, { parseAs: 'string' }, (_request: FastifyRequest, body: string | Buffer, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
}

export const isCsvContentType = (contentType: string | undefined): boolean => (contentType ?? '').split(';')[0].trim().toLowerCase() === CSV_MEDIA_TYPE;

/**
 * Whether an Accept header prefers CSV to JSON (RFC 9110 quality values; JSON wins ties and
 * wildcards, so clients that send nothing or `*\/*` keep getting JSON).
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (type.trim() === CSV_MEDIA_TYPE) csv = Math.max(csv, quality);
    if (['application/json', 'application/*', '*/*'].includes(type.trim())) json = Math.max(json, quality);
  }
  return csv > 0 && csv > json;
}
