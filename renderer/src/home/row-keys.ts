/** Arrow keys, Home and End move focus between a home view's row links (`a.home-link`). */
import { nextRowIndex } from './home-reducer.js';

export function onRowKeys(e: KeyboardEvent & { currentTarget: HTMLElement }): void {
  const links = [...e.currentTarget.querySelectorAll<HTMLElement>('a.home-link')];
  const current = links.indexOf(document.activeElement as HTMLElement);
  const next = nextRowIndex(e.key, current, links.length);
  if (next === null) return;
  e.preventDefault();
  links[next]?.focus();
}
