import type { ColumnType, Generated } from 'kysely';

/** Timestamps are ISO-8601 strings on both engines (pg's timestamptz is parsed back to ISO in database.ts). */
export type Timestamp = string;
/** Booleans are 0/1 integers on both engines: SQLite has no boolean type. */
export type Flag = number;
export type Id = Generated<number>;
export type CreatedAt = ColumnType<Timestamp, Timestamp | undefined, never>;
