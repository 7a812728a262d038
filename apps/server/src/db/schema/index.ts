export * from './users.ts';
export * from './catalog.ts';
export * from './orders.ts';
export * from './messages.ts';
export * from './integrations.ts';
