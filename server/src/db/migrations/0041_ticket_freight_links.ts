import { sql, type Kysely } from 'kysely';
import { TICKET_LINK_KINDS } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';
import { quotedList, widenSqliteColumnCheck } from '../sqlite-column-check.js';

/**
 * A ticket may be about a freight shipment (issue 18: "freight-shipment" joins the link kinds): ticket.link_kind's
 * CHECK, written by 0032 with the kinds of its day, takes today's TICKET_LINK_KINDS. Only wider: every link kept.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await widenTicketLinkKinds(db, d);
}

/**
 * Makes ticket.link_kind accept `kinds` (contracts' TICKET_LINK_KINDS). Idempotent; a later migration that grows
 * the list calls it again. On SQLite the table is rebuilt (widenSqliteColumnCheck), its comments and files kept.
 */
export async function widenTicketLinkKinds(db: Kysely<any>, d: Dialect, kinds: readonly string[] = TICKET_LINK_KINDS): Promise<void> {
  if (d.engine === 'postgres') {
    await sql`ALTER TABLE ticket DROP CONSTRAINT IF EXISTS ticket_link_kind_check`.execute(db);
    await sql`ALTER TABLE ticket ADD CONSTRAINT ticket_link_kind_check CHECK (link_kind IN (${sql.raw(quotedList(kinds))}))`.execute(db);
    return;
  }
  await widenSqliteColumnCheck(db, 'ticket', /"?link_kind"? varchar\(16\) check \(link_kind IN \([^)]*\)\)/i,
    `"link_kind" varchar(16) check (link_kind IN (${quotedList(kinds)}))`, kinds);
}
