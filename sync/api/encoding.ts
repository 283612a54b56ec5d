/**
 * Request encoding exactly as Zulip expects: `application/x-www-form-urlencoded`, strings sent raw,
 * every other value (booleans, numbers, null, arrays, objects) JSON-encoded. Undefined parameters
 * are left out. The same encoding serves the query string (GET, DELETE) and the body.
 */

export type ParamValue =
  | string
  | number
  | boolean
  | null
  | readonly ParamValue[]
  | { readonly [key: string]: ParamValue | undefined };

export type Params = Readonly<Record<string, ParamValue | undefined>>;

export function encodeParamValue(v: ParamValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function encodeParams(params: Params | undefined): string {
  const out = new URLSearchParams();
  if (params) {
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined) continue;
      out.append(k, encodeParamValue(v));
    }
  }
  return out.toString();
}

/** Encode one path segment. Navigation-view fragments keep their `/` separators. */
export function pathSegment(v: string | number, opts: { keepSlashes?: boolean } = {}): string {
  const s = String(v);
  if (opts.keepSlashes) return s.split('/').map(encodeURIComponent).join('/');
  return encodeURIComponent(s);
}
