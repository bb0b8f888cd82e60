import type { Id, Timestamp } from '../column-types.js';

/** One status transition of a document (migration 0015): which, from what to what, when, by whom and why. */
export interface DocumentStatusHistoryTable {
  id: Id; kind: string; document_id: number; from_status: string; to_status: string; at: Timestamp;
  user_id: number | null; username: string | null; reason: string | null;
}
/** The next number of a document kind in a scope ('' for system-wide). */
export interface DocumentSequenceTable { kind: string; scope: string; next_value: number }

/** Tables of the documents' platform (migration 0015). Merged into DB in db/schema.ts. */
export interface DocumentTables {
  document_status_history: DocumentStatusHistoryTable;
  document_sequence: DocumentSequenceTable;
}
