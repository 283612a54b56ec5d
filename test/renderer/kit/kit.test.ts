/** The kit's pure parts: toasts (cap, repeats, dismiss), button classes, error descriptions. */
import { describe, expect, it } from 'vitest';
import { buttonClass } from '../../../renderer/src/kit/button-class.js';
import { describeFailure } from '../../../renderer/src/kit/failure.js';
import { addToast, dismissToast, ERROR_MS, INFO_MS, makeToast, MAX_TOASTS, type Toast } from '../../../renderer/src/kit/toast-reducer.js';

describe('toasts', () => {
  it('errors stay longer than notices', () => {
    expect(makeToast(1, 'saved').timeoutMs).toBe(INFO_MS);
    expect(makeToast(2, 'failed', 'error').timeoutMs).toBe(ERROR_MS);
    expect(ERROR_MS).toBeGreaterThan(INFO_MS);
  });

  it('adds newest last and drops the oldest past the cap', () => {
    let list: Toast[] = [];
    for (let i = 1; i <= MAX_TOASTS + 2; i++) list = addToast(list, makeToast(i, `notice ${i}`)).list;
    expect(list.map((t) => t.id)).toEqual([3, 4, 5, 6]);
    expect(list).toHaveLength(MAX_TOASTS);
  });

  it('refreshes the last toast when the same text comes again, instead of stacking', () => {
    const a = addToast([], makeToast(1, 'Could not sign out', 'error'));
    const b = addToast(a.list, makeToast(2, 'Could not sign out', 'error'));
    expect(b.list.map((t) => t.id)).toEqual([2]);
    expect(b.replaced).toBe(1);
    // Same text as a notice is another toast.
    const c = addToast(b.list, makeToast(3, 'Could not sign out', 'info'));
    expect(c.list.map((t) => t.id)).toEqual([2, 3]);
    expect(c.replaced).toBeNull();
  });

  it('dismisses by id only', () => {
    const list = [makeToast(1, 'a'), makeToast(2, 'b')];
    expect(dismissToast(list, 1).map((t) => t.id)).toEqual([2]);
    expect(dismissToast(list, 9)).toHaveLength(2);
  });
});

describe('buttonClass', () => {
  it('maps variants and sizes to the base classes', () => {
    expect(buttonClass()).toBe('');
    expect(buttonClass('primary')).toBe('primary');
    expect(buttonClass('quiet', 'small')).toBe('quiet small');
    expect(buttonClass('link', 'normal', 'load-older')).toBe('link-button load-older');
  });
});

describe('describeFailure', () => {
  it("gives the error's own words whatever was thrown", () => {
    expect(describeFailure(new TypeError('x is undefined'))).toBe('x is undefined');
    expect(describeFailure(new Error(''))).toBe('Error');
    expect(describeFailure('plain text')).toBe('plain text');
    expect(describeFailure({ code: 42 })).toBe('{"code":42}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeFailure(cyclic)).toBe('[object Object]');
  });
});
