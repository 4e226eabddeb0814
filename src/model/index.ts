export * from './vocab.ts';
export * from './schemas.ts';
export * from './source.ts';
