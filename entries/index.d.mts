export * from '../dist/index.cjs';
