/** Pure: the classes of the kit's button (kit/base.css) for a variant and a size. */
export type ButtonVariant = 'default' | 'primary' | 'quiet' | 'link';

/** The class list for a variant and size (pure, shared with anything styled as a button). */
export function buttonClass(variant: ButtonVariant = 'default', size: 'normal' | 'small' = 'normal', extra?: string): string {
  const parts: string[] = [];
  if (variant === 'primary') parts.push('primary');
  else if (variant === 'quiet') parts.push('quiet');
  else if (variant === 'link') parts.push('link-button');
  if (size === 'small') parts.push('small');
  if (extra) parts.push(extra);
  return parts.join(' ');
}
