/**
 * Reads Zulip's OpenAPI description and collects the documented response examples of an operation,
 * per HTTP status, so the example-conformance test can push each through `classifyResponse`.
 *
 * The reference file is machine-normalised: examples sit as `example:` keys at various nesting
 * levels of `components/schemas`, reached through `$ref`, `allOf`, `oneOf` and `anyOf`; media types
 * may also carry `example` or `examples.<name>.value`. The walker follows only those composition
 * edges (never `properties` / `items`, whose examples describe a field, not a body) and keeps an
 * example when it is a whole response body: an object with a `result` key, or any example attached
 * directly to the response's schema (through `$ref`s only) or to its media type. Examples met at a
 * nested composition level that are not whole bodies are returned separately as `partial`, so
 * nothing is dropped without a trace.
 *
 * Every example is identified by the JSON pointer (RFC 6901) of its value inside the document,
 * e.g. `#/components/schemas/get_events_200_response/allOf/1/example`: stable, precise, and what
 * the test's exclusion list is keyed on.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const DEFAULT_OPENAPI_PATH =
  process.env.ZULIP_OPENAPI_PATH ?? '/work/shared/reference/zulip-openapi-fl420.yaml';

export type SpecNode = Record<string, unknown>;

export interface OpenApiDoc {
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components?: Record<string, unknown>;
  readonly [k: string]: unknown;
}

/** One documented example, found for an operation and status. */
export interface CollectedExample {
  /** JSON pointer of the example value inside the document. */
  readonly pointer: string;
  /** How the walker got there, for failure messages: `responses/400 > $ref CodedError > allOf[0]`. */
  readonly route: string;
  /** Example name, for media-type `examples.<name>`; undefined otherwise. */
  readonly name: string | undefined;
  readonly value: unknown;
}

export interface StatusExamples {
  /** The status key as written in the document: `"200"`, `"400"`, possibly `"4XX"` / `"default"`. */
  readonly status: string;
  /** Whole response bodies. */
  readonly examples: readonly CollectedExample[];
  /** Examples found on a composition branch that are not whole bodies (no `result`, not at the root). */
  readonly partial: readonly CollectedExample[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

let cached: { path: string; doc: OpenApiDoc } | undefined;

/** Parse the OpenAPI YAML (once per path; later calls return the same object). */
export function loadOpenApi(path: string = DEFAULT_OPENAPI_PATH): OpenApiDoc {
  if (cached?.path === path) return cached.doc;
  const doc = parseOpenApi(readFileSync(path, 'utf8'));
  cached = { path, doc };
  return doc;
}

export function parseOpenApi(text: string): OpenApiDoc {
  const doc: unknown = parse(text, { maxAliasCount: -1 });
  if (!isRecord(doc) || !isRecord(doc.paths)) throw new Error('not an OpenAPI document: no `paths` object');
  return doc as unknown as OpenApiDoc;
}

export function isRecord(v: unknown): v is SpecNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `'GET /users/{user_id}'` → `{ method: 'get', path: '/users/{user_id}' }`. */
export function splitOperationKey(key: string): { method: string; path: string } {
  const m = /^([A-Z]+) (\/\S*)$/.exec(key);
  if (!m) throw new Error(`bad operation key ${JSON.stringify(key)} (want "METHOD /path/{param}")`);
  return { method: m[1]!.toLowerCase(), path: m[2]! };
}

/** Every operation key (`METHOD /path`) the document defines. */
export function operationKeys(doc: OpenApiDoc): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isRecord(item)) continue;
    for (const m of METHODS) if (isRecord(item[m])) out.push(`${m.toUpperCase()} ${path}`);
  }
  return out;
}

/** The operation object for a key, or undefined when the document has no such path + method. */
export function findOperation(doc: OpenApiDoc, key: string): { node: SpecNode; pointer: string } | undefined {
  const { method, path } = splitOperationKey(key);
  const item = doc.paths[path];
  if (!isRecord(item)) return undefined;
  const node = item[method];
  if (!isRecord(node)) return undefined;
  return { node, pointer: `#/paths/${escapePointer(path)}/${method}` };
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Resolve a local `$ref` (`#/components/...`). Throws on a remote or dangling reference. */
export function resolveRef(doc: OpenApiDoc, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const seg = unescapePointer(raw);
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isRecord(cur)) cur = cur[seg];
    else cur = undefined;
    if (cur === undefined) throw new Error(`dangling $ref ${ref}`);
  }
  return cur;
}

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** True for a whole Zulip response body: a JSON object with a `result` key. */
export function isResponseBody(v: unknown): boolean {
  return isRecord(v) && 'result' in v;
}

interface Sink {
  /** Whether a value found below the root is a whole example (a body, an event, ...). */
  readonly isWhole: (v: unknown) => boolean;
  readonly seen: Set<string>;
  readonly examples: CollectedExample[];
  readonly partial: CollectedExample[];
}

function push(sink: Sink, whole: boolean, ex: CollectedExample): void {
  if (sink.seen.has(ex.pointer)) return;
  sink.seen.add(ex.pointer);
  (whole ? sink.examples : sink.partial).push(ex);
}

/**
 * Walk a schema along `$ref` / `allOf` / `oneOf` / `anyOf` and collect its `example` (and
 * OAS 3.1-style `examples: [...]`) values. `atRoot` is true while only `$ref`s separate the node
 * from the response's media type: an example there is the body by definition.
 */
function walkSchema(
  doc: OpenApiDoc,
  node: unknown,
  pointer: string,
  route: string,
  atRoot: boolean,
  refStack: readonly string[],
  sink: Sink,
): void {
  if (!isRecord(node)) return;
  if ('example' in node) {
    const value = node.example;
    push(sink, atRoot || sink.isWhole(value), { pointer: `${pointer}/example`, route, name: undefined, value });
  }
  if (Array.isArray(node.examples)) {
    node.examples.forEach((value, i) => {
      push(sink, atRoot || sink.isWhole(value), {
        pointer: `${pointer}/examples/${i}`,
        route: `${route} > examples[${i}]`,
        name: undefined,
        value,
      });
    });
  }
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (refStack.includes(ref)) return; // a cycle: everything on it is already being walked
    walkSchema(doc, resolveRef(doc, ref), ref, `${route} > $ref ${refName(ref)}`, atRoot, [...refStack, ref], sink);
  }
  for (const comb of ['allOf', 'oneOf', 'anyOf'] as const) {
    const branches = node[comb];
    if (!Array.isArray(branches)) continue;
    branches.forEach((b, i) => {
      walkSchema(doc, b, `${pointer}/${comb}/${i}`, `${route} > ${comb}[${i}]`, false, refStack, sink);
    });
  }
}

/** Follow a chain of `$ref`s (for response objects, media types, ...). */
function deref(doc: OpenApiDoc, node: unknown, pointer: string, route: string) {
  let cur = node;
  let ptr = pointer;
  let rt = route;
  const seen = new Set<string>();
  while (isRecord(cur) && typeof cur.$ref === 'string') {
    const ref = cur.$ref;
    if (seen.has(ref)) throw new Error(`$ref cycle at ${ref}`);
    seen.add(ref);
    cur = resolveRef(doc, ref);
    ptr = ref;
    rt = `${rt} > $ref ${refName(ref)}`;
  }
  return { node: cur, pointer: ptr, route: rt };
}

/** Collect the examples of one response object (any media type; JSON is the only one Zulip uses). */
export function collectResponseObjectExamples(
  doc: OpenApiDoc,
  response: unknown,
  pointer: string,
  route: string,
): { examples: CollectedExample[]; partial: CollectedExample[] } {
  const sink: Sink = { isWhole: isResponseBody, seen: new Set(), examples: [], partial: [] };
  const res = deref(doc, response, pointer, route);
  if (!isRecord(res.node) || !isRecord(res.node.content)) return sink;
  for (const [mediaType, media0] of Object.entries(res.node.content)) {
    const media = deref(doc, media0, `${res.pointer}/content/${escapePointer(mediaType)}`, res.route);
    if (!isRecord(media.node)) continue;
    if ('example' in media.node) {
      push(sink, true, { pointer: `${media.pointer}/example`, route: media.route, name: undefined, value: media.node.example });
    }
    if (isRecord(media.node.examples)) {
      for (const [name, ex0] of Object.entries(media.node.examples)) {
        const ex = deref(doc, ex0, `${media.pointer}/examples/${escapePointer(name)}`, `${media.route} > examples.${name}`);
        if (isRecord(ex.node) && 'value' in ex.node) {
          push(sink, true, { pointer: `${ex.pointer}/value`, route: ex.route, name, value: ex.node.value });
        }
      }
    }
    walkSchema(doc, media.node.schema, `${media.pointer}/schema`, `${media.route} > schema`, true, [], sink);
  }
  return sink;
}

/** All examples of an operation, per documented status. Throws when the document lacks the key. */
export function collectOperationExamples(doc: OpenApiDoc, key: string): StatusExamples[] {
  const op = findOperation(doc, key);
  if (!op) throw new Error(`the OpenAPI document has no operation ${key}`);
  const responses = op.node.responses;
  if (!isRecord(responses)) return [];
  return Object.entries(responses).map(([status, response]) => {
    const { examples, partial } = collectResponseObjectExamples(
      doc,
      response,
      `${op.pointer}/responses/${escapePointer(status)}`,
      `responses/${status}`,
    );
    return { status, examples, partial };
  });
}

/**
 * The schema of one property of a body schema, found through `$ref` / `allOf` / `oneOf` / `anyOf`
 * (the first branch that declares it), with its pointer.
 */
export function findPropertySchema(
  doc: OpenApiDoc,
  schema: unknown,
  pointer: string,
  property: string,
  refStack: readonly string[] = [],
): { node: unknown; pointer: string } | undefined {
  if (!isRecord(schema)) return undefined;
  if (isRecord(schema.properties) && property in schema.properties) {
    return { node: schema.properties[property], pointer: `${pointer}/properties/${escapePointer(property)}` };
  }
  if (typeof schema.$ref === 'string' && !refStack.includes(schema.$ref)) {
    const found = findPropertySchema(doc, resolveRef(doc, schema.$ref), schema.$ref, property, [...refStack, schema.$ref]);
    if (found) return found;
  }
  for (const comb of ['allOf', 'oneOf', 'anyOf'] as const) {
    const branches = schema[comb];
    if (!Array.isArray(branches)) continue;
    for (let i = 0; i < branches.length; i++) {
      const found = findPropertySchema(doc, branches[i], `${pointer}/${comb}/${i}`, property, refStack);
      if (found) return found;
    }
  }
  return undefined;
}

/** The JSON response schema of one status of an operation (after `$ref`s), with its pointer. */
export function responseSchema(doc: OpenApiDoc, key: string, status: string): { node: unknown; pointer: string } | undefined {
  const op = findOperation(doc, key);
  if (!op || !isRecord(op.node.responses)) return undefined;
  const res = deref(doc, op.node.responses[status], `${op.pointer}/responses/${escapePointer(status)}`, '');
  if (!isRecord(res.node) || !isRecord(res.node.content)) return undefined;
  const media = deref(doc, res.node.content['application/json'], `${res.pointer}/content/application~1json`, '');
  if (!isRecord(media.node) || media.node.schema === undefined) return undefined;
  return { node: media.node.schema, pointer: `${media.pointer}/schema` };
}

/**
 * Examples of the items of an array property of a success body (e.g. `events` of `GET /events`):
 * the examples on the item schema and on its `$ref` / `allOf` / `oneOf` / `anyOf` branches, and
 * the elements of that array inside every whole-body example of the same status. `isItem` says
 * which branch examples are whole items (for events: objects with a `type`); the others are
 * returned as `partial`.
 */
export function collectArrayItemExamples(
  doc: OpenApiDoc,
  key: string,
  status: string,
  property: string,
  isItem: (v: unknown) => boolean,
): { examples: CollectedExample[]; partial: CollectedExample[] } {
  const schema = responseSchema(doc, key, status);
  if (!schema) throw new Error(`${key} has no JSON schema for status ${status}`);
  const prop = findPropertySchema(doc, schema.node, schema.pointer, property);
  if (!prop) throw new Error(`${key} ${status}: no property ${property}`);
  const arr = deref(doc, prop.node, prop.pointer, '');
  if (!isRecord(arr.node) || arr.node.items === undefined) throw new Error(`${key} ${status}: ${property} is not an array`);

  const sink: Sink = { isWhole: isItem, seen: new Set(), examples: [], partial: [] };
  walkSchema(doc, arr.node.items, `${arr.pointer}/items`, `${property}[]`, false, [], sink);
  const bodies = collectOperationExamples(doc, key)
    .filter((s) => s.status === status)
    .flatMap((s) => s.examples);
  for (const body of bodies) {
    const items = isRecord(body.value) ? body.value[property] : undefined;
    if (!Array.isArray(items)) continue;
    items.forEach((value, i) => {
      push(sink, true, {
        pointer: `${body.pointer}/${escapePointer(property)}/${i}`,
        route: `${body.route} > example.${property}[${i}]`,
        name: undefined,
        value,
      });
    });
  }
  return { examples: sink.examples, partial: sink.partial };
}
