/** Placeholder first screen; the sign-in / sandbox screens arrive with the desktop-shell issue. */
export function App() {
  return (
    <main>
      <h1>Zulip Offline</h1>
      <p>The offline-first client is being built. This window proves the renderer bundle loads.</p>
    </main>
  );
}
