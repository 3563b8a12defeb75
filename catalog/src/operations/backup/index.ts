// Backup, restore and schema migration (docs/operations.md). What other layers use by name; the
// operator CLIs import the files they need directly.
export { prepareExport } from './export.ts';
