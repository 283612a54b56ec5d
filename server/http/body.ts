/**
 * Reads a request body (bounded) into parameters: `application/x-www-form-urlencoded` or
 * `multipart/form-data` (busboy). Other content types carry no parameters, as in Django.
 *
 * Every body has one total limit, checked against `Content-Length` before a byte is read and
 * counted while reading (a chunked body has no length): past it the request is refused with 413 and
 * reading stops. The caller picks the limit per route (small for unauthenticated routes) and reads
 * the body only after authenticating.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { JsonableError } from './errors.js';
import type { UploadedFile } from './params.js';

export interface ParsedBody {
  readonly fields: Map<string, string>;
  readonly files: UploadedFile[];
}

export interface BodyLimits {
  /** Total bytes of an urlencoded (or untyped) body. */
  readonly form: number;
  /** Total bytes of a multipart body, files and fields together. */
  readonly multipart: number;
}

export const tooLarge = (limit: number) =>
  new JsonableError('BAD_REQUEST', `Request body too large (limit: ${limit} bytes)`, 413, { max_bytes: limit });

const isMultipart = (req: IncomingMessage) => (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');

/** The limit that applies to this request's body. */
export const limitFor = (req: IncomingMessage, limits: BodyLimits) => (isMultipart(req) ? limits.multipart : limits.form);

/** Refuses a body whose declared length is over the limit, before reading any of it. */
export function checkDeclaredLength(req: IncomingMessage, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
}

/** Calls `onOver` (once) when more than `limit` bytes have arrived. */
function countBytes(req: IncomingMessage, limit: number, onOver: () => void): void {
  let size = 0;
  let over = false;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (!over && size > limit) {
      over = true;
      onOver();
    }
  });
}

function readAll(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failed = false;
    countBytes(req, limit, () => {
      failed = true;
      chunks.length = 0;
      req.pause();
      reject(tooLarge(limit));
    });
    req.on('data', (c: Buffer) => !failed && chunks.push(c));
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
    countBytes(req, limit, () => {
      failure = tooLarge(limit);
      req.unpipe(bb);
      req.pause();
      reject(failure);
    });
    bb.on('field', (name, value) => fields.set(name, value));
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => !failure && chunks.push(c));
      stream.on('limit', () => (failure ??= tooLarge(limit)));
      stream.on('close', () => files.push({ field, filename: info.filename ?? 'upload', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    bb.on('error', () => reject(failure ?? new JsonableError('BAD_REQUEST', 'Malformed multipart body', 400)));
    bb.on('close', () => (failure ? reject(failure) : resolve({ fields, files })));
    req.pipe(bb);
  });
}

export async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<ParsedBody> {
  const limit = limitFor(req, limits);
  checkDeclaredLength(req, limit);
  if (isMultipart(req)) return parseMultipart(req, limit);
  const buf = await readAll(req, limit);
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const fields = new Map<string, string>();
  if (type.startsWith('application/x-www-form-urlencoded') || (type === '' && buf.length > 0)) {
    for (const [k, v] of new URLSearchParams(buf.toString('utf8'))) fields.set(k, v);
  }
  return { fields, files: [] };
}
