export * from './vocab.ts';
export * from './schemas.ts';
