/**
 * A part of the screen that fails while rendering shows a readable fallback in its place (what
 * failed, the error's own words, Try again / Reload the app) instead of blanking the window. The
 * error is also logged, so a test or a bug report sees it.
 */
import { ErrorBoundary } from 'solid-js';
import type { JSX } from 'solid-js';
import { Button } from './Button.js';
import { describeFailure } from './failure.js';

export function Boundary(props: { what: string; children: JSX.Element }) {
  return (
    <ErrorBoundary
      fallback={(err: unknown, reset) => {
        console.error(`${props.what} failed:`, err);
        return (
          <section class="boundary" role="alert" aria-label={`${props.what} failed`}>
            <h2 class="boundary-title">Something went wrong in {props.what}.</h2>
            <p class="boundary-detail">{describeFailure(err)}</p>
            <div class="boundary-actions">
              <Button variant="primary" onClick={reset}>
                Try again
              </Button>
              <Button onClick={() => window.location.reload()}>Reload the app</Button>
            </div>
          </section>
        );
      }}
    >
      {props.children}
    </ErrorBoundary>
  );
}
