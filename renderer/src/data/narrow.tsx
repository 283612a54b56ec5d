/** The narrow store (narrow-store.ts) as an app-wide store: its Provider and `useNarrow`. */
import { createNarrowStore, type NarrowStore } from './narrow-store.js';
import { storeContext } from './store-context.js';

export type { NarrowStore } from './narrow-store.js';

const ctx = storeContext<NarrowStore, { isLive: () => boolean }>('Narrow', (bridge, props) => createNarrowStore(bridge, { isLive: () => props.isLive() }));
export const NarrowProvider = ctx.Provider;
export const useNarrow = ctx.use;
