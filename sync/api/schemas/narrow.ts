/**
 * Narrows (search filters) as the server's `narrow.py` accepts them (docs/zulip-behaviour.md "Narrows";
 * Zulip's "construct a narrow"): a typed term per operator, small builders, the two wire encodings and a parser.
 *
 * Operand types follow the server's `NarrowParameter` validation: operators that name one user,
 * channel or message take an id or a string (name / email / id text); `dm` takes an id list or a
 * comma-separated email string; `search` takes a non-empty string; everything else takes a string.
 *
 * Pure: no feature-level or empty-topic handling here (routes do that where it matters).
 */
import * as z from 'zod';
import { int } from './envelope.js';

const idOrString = z.union([int, z.string()]);
const negated = z.boolean().optional();

export const IS_OPERANDS = [
  'dm',
  'private',
  'starred',
  'unread',
  'mentioned',
  'alerted',
  'followed', // FL 265
  'muted', // FL 366
  'resolved',
] as const;
export type IsOperand = (typeof IS_OPERANDS)[number];

export const HAS_OPERANDS = ['attachment', 'image', 'link', 'reaction' /* FL 249 */] as const;
export type HasOperand = (typeof HAS_OPERANDS)[number];

export const IN_OPERANDS = ['home', 'all'] as const;
export type InOperand = (typeof IN_OPERANDS)[number];

/** `archived` is FL 489 (after this client's spec level); older servers answer BAD_NARROW. */
export const CHANNELS_OPERANDS = ['public', 'web-public', 'archived'] as const;
export type ChannelsOperand = (typeof CHANNELS_OPERANDS)[number];

/** One term, either encoding, as zod sees it; the discriminator is the operator. */
export const narrowTermSchema = z.lazy(() => z.discriminatedUnion('operator', [
  /** A channel id, or its name. */
  z.object({ operator: z.enum(['channel', 'stream']), operand: idOrString, negated }),
  z.object({ operator: z.enum(['channels', 'streams']), operand: z.enum(CHANNELS_OPERANDS), negated }),
  z.object({ operator: z.literal('topic'), operand: z.string(), negated }),
  /** A user id, or an email. */
  z.object({ operator: z.literal('sender'), operand: idOrString, negated }),
  /** The exact conversation: user ids, or `"email1,email2"`. */
  z.object({ operator: z.enum(['dm', 'pm-with', 'pm_with']), operand: z.union([z.array(int), z.string()]), negated }),
  /** Every conversation including this user (`group-pm-with` has slightly different semantics). */
  z.object({
    operator: z.enum(['dm-including', 'group-pm-with', 'group_pm_with']),
    operand: idOrString,
    negated,
  }),
  z.object({ operator: z.literal('is'), operand: z.enum(IS_OPERANDS), negated }),
  z.object({ operator: z.literal('has'), operand: z.enum(HAS_OPERANDS), negated }),
  z.object({ operator: z.literal('in'), operand: z.enum(IN_OPERANDS), negated }),
  z.object({ operator: z.literal('search'), operand: z.string().min(1, 'search operand must not be empty'), negated }),
  /** Ignored by the server's filter; its operand is meant to be used as the `anchor`. */
  z.object({ operator: z.literal('near'), operand: z.string(), negated }),
  z.object({ operator: z.literal('id'), operand: idOrString, negated }),
  /** FL 271: the conversation that message is in now. */
  z.object({ operator: z.literal('with'), operand: idOrString, negated }),
  /** FL 446: explicit personal mentions of this user. */
  z.object({ operator: z.literal('mentions'), operand: idOrString, negated }),
]));

export type NarrowTerm = z.output<typeof narrowTermSchema>;
export type NarrowOperator = NarrowTerm['operator'];

/** Every operator, aliases included (kept in step with the schema by the type check below). */
export const NARROW_OPERATORS = [
  'channel',
  'stream',
  'channels',
  'streams',
  'topic',
  'sender',
  'dm',
  'pm-with',
  'pm_with',
  'dm-including',
  'group-pm-with',
  'group_pm_with',
  'is',
  'has',
  'in',
  'search',
  'near',
  'id',
  'with',
  'mentions',
] as const satisfies readonly NarrowOperator[];
// Fails to compile if the schema gains an operator the list above lacks.
const _allOperatorsListed: Exclude<NarrowOperator, (typeof NARROW_OPERATORS)[number]> extends never ? true : never = true;
void _allOperatorsListed;

/** A term in the modern wire encoding (the element type of the `narrow` parameter). */
export type WireNarrowTerm = {
  readonly operator: string;
  readonly operand: string | number | readonly number[];
  readonly negated?: boolean;
};

/** Builders for the modern operators (aliases are still valid `NarrowTerm`s if written out). */
export const narrowTerm = {
  channel: (channel: number | string): NarrowTerm => ({ operator: 'channel', operand: channel }),
  channels: (which: ChannelsOperand): NarrowTerm => ({ operator: 'channels', operand: which }),
  topic: (topic: string): NarrowTerm => ({ operator: 'topic', operand: topic }),
  sender: (user: number | string): NarrowTerm => ({ operator: 'sender', operand: user }),
  /** User ids, or emails (joined with commas, as the server expects for the string form). */
  dm: (users: readonly number[] | readonly string[]): NarrowTerm => ({
    operator: 'dm',
    operand: isNumberList(users) ? [...users] : users.join(','),
  }),
  dmIncluding: (user: number | string): NarrowTerm => ({ operator: 'dm-including', operand: user }),
  is: (what: IsOperand): NarrowTerm => ({ operator: 'is', operand: what }),
  has: (what: HasOperand): NarrowTerm => ({ operator: 'has', operand: what }),
  in: (what: InOperand): NarrowTerm => ({ operator: 'in', operand: what }),
  search: (text: string): NarrowTerm => {
    if (text === '') throw new RangeError('narrow: the search operand must not be empty');
    return { operator: 'search', operand: text };
  },
  near: (messageId: number | string): NarrowTerm => ({ operator: 'near', operand: String(messageId) }),
  id: (messageId: number | string): NarrowTerm => ({ operator: 'id', operand: messageId }),
  with: (messageId: number | string): NarrowTerm => ({ operator: 'with', operand: messageId }),
  mentions: (user: number | string): NarrowTerm => ({ operator: 'mentions', operand: user }),
} as const;

/** The same term, excluded instead of required. */
export function negate(term: NarrowTerm): NarrowTerm {
  return { ...term, negated: true };
}

function isNumberList(v: readonly number[] | readonly string[]): v is readonly number[] {
  return v.every((x) => typeof x === 'number');
}

/** The modern encoding: `[{operator, operand, negated?}]`; `negated` only when true. */
export function encodeNarrow(terms: readonly NarrowTerm[]): WireNarrowTerm[] {
  return terms.map((t) => {
    const operand = Array.isArray(t.operand) ? [...t.operand] : t.operand;
    return t.negated ? { operator: t.operator, operand, negated: true } : { operator: t.operator, operand };
  });
}

/** Operators whose id operand means the same thing written as decimal text. */
const ID_AS_TEXT: ReadonlySet<NarrowOperator> = new Set<NarrowOperator>(['id', 'near', 'with']);

/**
 * The legacy encoding `[[operator, operand]]` (e.g. for `POST /register`'s `narrow`). Each pair is
 * two strings, so negation cannot be expressed, nor ids where a string operand means a name or an
 * email (a channel id as `"5"` would be read as the channel *named* 5): those throw.
 */
export function encodeLegacyNarrow(terms: readonly NarrowTerm[]): [string, string][] {
  return terms.map((t, i) => {
    if (t.negated) {
      throw new Error(`narrow term ${i} (${t.operator}) is negated; the legacy [operator, operand] encoding cannot express negation`);
    }
    if (typeof t.operand === 'string') return [t.operator, t.operand];
    if (typeof t.operand === 'number' && ID_AS_TEXT.has(t.operator)) return [t.operator, String(t.operand)];
    throw new Error(
      `narrow term ${i} (${t.operator}) has the non-string operand ${JSON.stringify(t.operand)}; ` +
        'the legacy encoding needs a name or email here (or use the modern encoding)',
    );
  });
}

export type ParseNarrowResult =
  | { readonly ok: true; readonly terms: NarrowTerm[] }
  | { readonly ok: false; readonly error: string };

const KNOWN_OPERATORS: ReadonlySet<string> = new Set(NARROW_OPERATORS);

/**
 * Parse a narrow in either encoding (or a mix, as the server allows), given as JSON text or as an
 * already-decoded value. Unknown operators and operands of the wrong type are reported, not thrown.
 */
export function parseNarrow(json: unknown): ParseNarrowResult {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (e) {
      return { ok: false, error: `narrow is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  if (!Array.isArray(value)) return { ok: false, error: 'narrow must be a JSON array of terms' };
  const terms: NarrowTerm[] = [];
  for (const [i, raw] of value.entries()) {
    let candidate: unknown = raw;
    if (Array.isArray(raw)) {
      if (raw.length !== 2 || typeof raw[0] !== 'string' || typeof raw[1] !== 'string') {
        return { ok: false, error: `narrow term ${i}: a legacy term must be exactly two strings [operator, operand]` };
      }
      candidate = { operator: raw[0], operand: raw[1] };
    }
    if (typeof candidate !== 'object' || candidate === null) {
      return { ok: false, error: `narrow term ${i}: expected an {operator, operand} object or an [operator, operand] pair` };
    }
    const operator: unknown = 'operator' in candidate ? candidate.operator : undefined;
    if (typeof operator !== 'string') return { ok: false, error: `narrow term ${i}: missing string "operator"` };
    if (!KNOWN_OPERATORS.has(operator)) return { ok: false, error: `narrow term ${i}: unknown operator "${operator}"` };
    const parsed = narrowTermSchema.safeParse(candidate);
    if (!parsed.success) {
      const why = parsed.error.issues.map((x) => `${x.path.join('.') || '(term)'}: ${x.message}`).join('; ');
      return { ok: false, error: `narrow term ${i} (${operator}): ${why}` };
    }
    terms.push(parsed.data);
  }
  return { ok: true, terms };
}
