/** The engine service: the contract's operations over every signed-in account (one shown), for both hosts. */
export * from './engine-service.js';
export * from './errors.js';
export * from './ports.js';
