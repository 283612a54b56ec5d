/** The engine service: the contract's operations over one open account, for both hosts. */
export * from './engine-service.js';
export * from './errors.js';
export * from './ports.js';
