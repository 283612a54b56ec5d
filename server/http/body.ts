/**
 * Reads a request body (bounded) into parameters: `application/x-www-form-urlencoded` or
 * `multipart/form-data` (busboy). Other content types carry no parameters, as in Django.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { JsonableError } from './errors.js';
import type { UploadedFile } from './params.js';

export interface ParsedBody {
  readonly fields: Map<string, string>;
  readonly files: UploadedFile[];
}

export const tooLarge = (limit: number) =>
  new JsonableError('BAD_REQUEST', `Request body too large (limit: ${limit} bytes)`, 413, { max_bytes: limit });

function readAll(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge(limit));
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => !failed && resolve(Buffer.concat(chunks)));
    req.on('error', (e) => !failed && reject(e));
  });
}

function parseMultipart(req: IncomingMessage, limit: number): Promise<ParsedBody> {
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    const files: UploadedFile[] = [];
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fileSize: limit, fieldSize: limit, files: 20, fields: 500 } });
    } catch {
      reject(new JsonableError('BAD_REQUEST', 'Malformed multipart body', 400));
      return;
    }
    let failure: JsonableError | undefined;
    bb.on('field', (name, value) => fields.set(name, value));
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => (failure = tooLarge(limit)));
      stream.on('close', () => files.push({ field, filename: info.filename ?? 'upload', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    bb.on('error', () => reject(failure ?? new JsonableError('BAD_REQUEST', 'Malformed multipart body', 400)));
    bb.on('close', () => (failure ? reject(failure) : resolve({ fields, files })));
    req.pipe(bb);
  });
}

export async function readBody(req: IncomingMessage, limits: { form: number; multipart: number }): Promise<ParsedBody> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return parseMultipart(req, limits.multipart);
  const buf = await readAll(req, limits.form);
  const fields = new Map<string, string>();
  if (type.startsWith('application/x-www-form-urlencoded') || (type === '' && buf.length > 0)) {
    for (const [k, v] of new URLSearchParams(buf.toString('utf8'))) fields.set(k, v);
  }
  return { fields, files: [] };
}
