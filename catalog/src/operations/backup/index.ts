// Backup, restore and schema migration (docs/operations.md).
export * from './export.ts';
export * from './format.ts';
export * from './import.ts';
export * from './json-array.ts';
export * from './migrate.ts';
