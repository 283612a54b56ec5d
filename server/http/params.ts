/**
 * Request parameters, read from the body or the query string for every method (body first, like
 * Zulip). Strings are raw; every other type is JSON-decoded and validated. Each getter marks the
 * parameter as used, so the parameters a handler never read come back as
 * `ignored_parameters_unsupported`. Handlers read every parameter they support, up front.
 */
import type * as z from 'zod';
import { invalidJson, invalidParam, missingParam } from './errors.js';
import { parseJsonParam } from './json.js';

export interface UploadedFile {
  readonly field: string;
  readonly filename: string;
  readonly mimeType: string;
  readonly data: Buffer;
}

interface StrOpts {
  /** Reject values longer than this (in code points). */
  readonly maxLength?: number;
  /** Reject the empty (or all-whitespace) string. */
  readonly nonEmpty?: boolean;
}

interface IntOpts {
  readonly min?: number;
  readonly max?: number;
}

export class Params {
  private readonly used = new Set<string>();

  constructor(
    private readonly values: ReadonlyMap<string, string>,
    readonly files: readonly UploadedFile[] = [],
  ) {}

  /** Names sent but never read by the handler. */
  ignored(): string[] {
    return [...this.values.keys()].filter((k) => !this.used.has(k)).sort();
  }

  has(name: string): boolean {
    this.used.add(name);
    return this.values.has(name);
  }

  /** The raw text of a parameter (marks it used). */
  raw(name: string): string | undefined {
    this.used.add(name);
    return this.values.get(name);
  }

  str(name: string, opts: StrOpts = {}): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v.includes('\u0000')) throw invalidParam(name, v, `${name} contains a NUL character`);
    if (opts.nonEmpty && v.trim() === '') throw invalidParam(name, v, `${name} cannot be blank`);
    if (opts.maxLength !== undefined && [...v].length > opts.maxLength) {
      throw invalidParam(name, v, `${name} is too long (limit: ${opts.maxLength} characters)`);
    }
    return v;
  }

  reqStr(name: string, opts: StrOpts = {}): string {
    const v = this.str(name, opts);
    if (v === undefined) throw missingParam(name);
    return v;
  }

  /** A JSON value (nesting bounded, see json.ts), not validated: `undefined` when absent. */
  jsonValue(name: string): unknown {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const parsed = parseJsonParam(name, v);
    if (!parsed.ok) throw invalidJson(name);
    return parsed.value;
  }

  json<S extends z.ZodType>(name: string, schema: S): z.output<S> | undefined {
    const v = this.jsonValue(name);
    if (v === undefined) return undefined;
    const r = schema.safeParse(v);
    if (!r.success) throw invalidParam(name, this.values.get(name), `Invalid ${name}: ${r.error.issues[0]?.message ?? 'bad value'}`);
    return r.data;
  }

  reqJson<S extends z.ZodType>(name: string, schema: S): z.output<S> {
    const v = this.json(name, schema);
    if (v === undefined) throw missingParam(name);
    return v;
  }

  int(name: string, opts: IntOpts = {}): number | undefined {
    const v = this.jsonValue(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidParam(name, this.values.get(name), `${name} is not an integer`);
    if (opts.min !== undefined && v < opts.min) throw invalidParam(name, v, `${name} is too small`);
    if (opts.max !== undefined && v > opts.max) throw invalidParam(name, v, `${name} is too large`);
    return v;
  }

  reqInt(name: string, opts: IntOpts = {}): number {
    const v = this.int(name, opts);
    if (v === undefined) throw missingParam(name);
    return v;
  }

  bool(name: string): boolean | undefined {
    const v = this.jsonValue(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') throw invalidParam(name, this.values.get(name), `${name} is not a boolean`);
    return v;
  }

  reqBool(name: string): boolean {
    const v = this.bool(name);
    if (v === undefined) throw missingParam(name);
    return v;
  }

  /** A raw string restricted to a set of values. */
  choice<const T extends readonly string[]>(name: string, values: T): T[number] | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!isOneOf(v, values)) throw invalidParam(name, v, `Invalid ${name}: must be one of ${values.join(', ')}`);
    return v;
  }
}

export function isOneOf<const T extends readonly string[]>(v: string, values: T): v is T[number] {
  return values.includes(v);
}
