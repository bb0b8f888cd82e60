import type { Id, Timestamp } from '../column-types.js';

/** A user's saved filters of a report (migration 0031); filters as JSON. */
export interface ReportViewTable { id: Id; user_id: number; report: string; name: string; filters: string; updated_at: Timestamp }
/** One shift of a user at a warehouse: clock in, clock out (null while clocked in). Instants also as epoch ms. */
export interface LabourShiftTable {
  id: Id; user_id: number; warehouse_id: number; business_day: string; clock_in: Timestamp; clock_in_ms: number | string;
  clock_out: Timestamp | null; clock_out_ms: number | string | null;
}
export interface LabourBreakTable { id: Id; shift_id: number; start_ms: number | string; end_ms: number | string | null }
/** An engineered standard: units (or steps) per hour of a task type at a warehouse. */
export interface LabourStandardTable { warehouse_id: number; kind: string; units_per_hour: number; updated_at: Timestamp }
/** A client's labour rate in minor units per hour. */
export interface LabourRateTable { customer_id: number; rate_minor_per_hour: number | string; updated_at: Timestamp }

/** A user's scheduled report (migration 0038): filters as JSON; sent at next_run_at, then moved on a day or a week. */
export interface ReportSubscriptionTable {
  id: Id; user_id: number; report: string; filters: string; format: string; frequency: string; weekday: number | null; hour: number;
  time_zone: string; next_run_at: Timestamp; last_sent_at: Timestamp | null; created_at: Timestamp;
}
/** A file a mail in the outbox carries (migration 0038). */
export interface MailAttachmentTable { id: Id; mail_id: number; file_id: number }

type Big = number | string;
/** Migration 0045: the last floor_event id a rollup holds. */
export interface ReportRollupMarkTable { name: string; last_id: Big; taken_at: Timestamp }
/** Migration 0045: the activity log summed per warehouse, client, user, task type and business day. */
export interface ReportFloorDayTable {
  warehouse_id: number; customer_id: number; user_id: number; kind: string; business_day: string; steps: Big; units: Big; lines: Big; seconds: Big;
}
/** Migration 0045: a closed shift summed from its events up to event_mark; its task seconds per type and client. */
export interface ReportLabourShiftTable { shift_id: number; event_mark: Big }
export interface ReportLabourWorkTable { shift_id: number; kind: string; customer_id: number; seconds: Big }

/** Tables of reports and labour (migrations 0031, 0038, 0045). Merged into DB in db/schema.ts. */
export interface ReportTables {
  report_view: ReportViewTable;
  labour_shift: LabourShiftTable;
  labour_break: LabourBreakTable;
  labour_standard: LabourStandardTable;
  labour_rate: LabourRateTable;
  report_subscription: ReportSubscriptionTable;
  mail_attachment: MailAttachmentTable;
  report_rollup_mark: ReportRollupMarkTable;
  report_floor_day: ReportFloorDayTable;
  report_labour_shift: ReportLabourShiftTable;
  report_labour_work: ReportLabourWorkTable;
}
