/**
 * The Provider / use pair every app-wide store had written out: `storeContext('Users', createUsersStore)`
 * gives `Provider` (creates the store over the given bridge, or the app's, and disposes it with
 * the component) and `use()` (the store; a clear error outside the Provider). `mounted` runs in the
 * Provider after the store is made (effects that live as long as it does). A store that takes more
 * than the bridge names those props (`P`); `create` gets them.
 */
import { createContext, onCleanup, useContext, type JSX } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';

export interface StoreContext<S, P extends object = object> {
  Provider(props: P & { bridge?: Bridge; children: JSX.Element }): JSX.Element;
  use(): S;
}

export function storeContext<S extends { dispose(): void }, P extends object = object>(
  name: string,
  create: (bridge: Bridge, props: P) => S,
  mounted?: (store: S) => void,
): StoreContext<S, P> {
  const Ctx = createContext<S>();
  return {
    Provider(props) {
      const store = create(props.bridge ?? defaultBridge, props);
      onCleanup(store.dispose);
      mounted?.(store);
      return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
    },
    use() {
      const s = useContext(Ctx);
      if (!s) throw new Error(`use${name}() used outside <${name}Provider>`);
      return s;
    },
  };
}
