/** Arrow keys, Home and End move focus between a home view's row links (`a.home-link`). */
import { listIndex } from '../kit/menu-keys.js';

export function onRowKeys(e: KeyboardEvent & { currentTarget: HTMLElement }): void {
  const links = [...e.currentTarget.querySelectorAll<HTMLElement>('a.home-link')];
  const current = links.indexOf(document.activeElement as HTMLElement);
  const next = listIndex(e.key, current, links.length);
  if (next === null) return;
  e.preventDefault();
  links[next]?.focus();
}
