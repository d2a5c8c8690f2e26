// The request module's Node-only surface: the stores that write files (node:fs, proper-lockfile) and their atomic
// write, kept out of index.ts so the add-in's bundles never reach for a file system. The gateway and the CLI import them here.
export { FileStorage } from "./storage-file";
export { FileRecordStore } from "./cache-store/file-record-store";
export { beginAtomicWrite, writeFileAtomic, type PendingWrite } from "./atomic-file";
