/**
 * A message's server-rendered HTML, sanitised. The only place in the renderer that inserts HTML:
 * everything else is text through Solid's templates. A click on a link into the app (a Zulip
 * narrow of this realm: `#narrow/...`, `/#narrow/...` or the realm URL with a fragment) navigates
 * in place; every other link keeps opening outside (the sanitiser gives it target=_blank).
 */
import { createMemo } from 'solid-js';
import { useAccounts } from '../accounts/store.js';
import { internalHash } from '../router/links.js';
import { useRouter } from '../router/router.js';
import { sanitizeMessageHtml } from './sanitize.js';

export function MessageContent(props: { html: string }) {
  const router = useRouter();
  const accounts = useAccounts();
  const html = createMemo(() => sanitizeMessageHtml(props.html));
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || !(e.target instanceof Element)) return;
    const a = e.target.closest('a');
    if (a === null) return;
    const hash = internalHash(a.getAttribute('href') ?? '', { realmUrl: accounts.active()?.realm_url ?? null, pageUrl: window.location.href });
    if (hash === null) return;
    e.preventDefault();
    router.navigate(hash);
  };
  return <div class="message-content" innerHTML={html()} onClick={onClick} />;
}
