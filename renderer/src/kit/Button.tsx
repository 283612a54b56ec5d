/**
 * The kit's button: `variant` (default, primary, quiet, link) and `size` map to the classes in
 * kit/base.css; `type` defaults to "button" (a bare <button> in a form would submit it). Every
 * other attribute (aria-*, disabled, onClick, ...) passes through.
 */
import { splitProps, type JSX } from 'solid-js';
import { buttonClass, type ButtonVariant } from './button-class.js';

export type { ButtonVariant } from './button-class.js';

export interface ButtonProps extends JSX.ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'normal' | 'small';
}

export function Button(props: ButtonProps) {
  const [own, rest] = splitProps(props, ['variant', 'size', 'class', 'type']);
  return <button type={own.type ?? 'button'} class={buttonClass(own.variant, own.size, own.class)} {...rest} />;
}
