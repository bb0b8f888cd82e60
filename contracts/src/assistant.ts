import { z } from 'zod';
import { field } from './fields.js';
import { chartData } from './reports.js';

/**
 * The order-analytics assistant (spec sections 2, 7, 8, 9): the chat's query and time options, and the /API host's
 * requests and answers, with the spec's snake_case names.
 */

/** Spec section 9: the query options, as sent (value) and as shown (label). */
export const ASSISTANT_QUERY_TYPES = ['Order Received', 'Orders Processed', 'Orders Shipped', 'RO Received', 'RO Finalized', 'Orders Trend', 'All Orders'] as const;
export type AssistantQueryType = (typeof ASSISTANT_QUERY_TYPES)[number];
export const ASSISTANT_QUERY_LABELS: Record<AssistantQueryType, string> = {
  'Order Received': 'Orders Received',
  'Orders Processed': 'Orders Processed',
  'Orders Shipped': 'Orders Shipped',
  'RO Received': 'RO Received',
  'RO Finalized': 'RO Finalized',
  'Orders Trend': 'Orders Trend',
  'All Orders': 'All Orders',
};
export const ASSISTANT_TIME_RANGES = ['yesterday', 'last week', 'last month'] as const;
/**
 * Beyond the spec: the periods a typed question may name as well (the guided chips offer the spec's three). The
 * /API queries accept them too, so a typed answer's chart is drawn by the same call.
 */
export const ASSISTANT_ASK_TIME_RANGES = [...ASSISTANT_TIME_RANGES, 'this week', 'this month'] as const;
export type AssistantTimeRange = (typeof ASSISTANT_ASK_TIME_RANGES)[number];

/** Spec section 8: what the chat says when a call fails. */
export const ASSISTANT_MESSAGES = {
  clientsFailed: 'There is no valid data for these clients. Please try again.',
  analysisFailed: 'There is no valid data for this query. Please try again.',
} as const;

const name = (what: string) => field.text(200, `Enter the ${what} name`).trim().min(1, `Enter the ${what} name`);

export const warehouseClientsRequest = z.strictObject({ warehouse_name: name('warehouse') });
export const orderAnalysisRequest = z.strictObject({
  warehouse_name: name('warehouse'),
  client_name: name('client'),
  query_type: z.enum(ASSISTANT_QUERY_TYPES, { error: `Choose one of: ${ASSISTANT_QUERY_TYPES.join(', ')}` }),
  time_range: z.enum(ASSISTANT_ASK_TIME_RANGES, { error: `Choose one of: ${ASSISTANT_ASK_TIME_RANGES.join(', ')}` }),
  chart_type: z.literal('bar', { error: "Only 'bar' is offered" }).optional().default('bar'),
});
export type OrderAnalysisRequest = z.input<typeof orderAnalysisRequest>;

export const warehousesAnswer = z.object({ warehouses: z.array(z.string()) });
export const warehouseClientsAnswer = z.object({ clients: z.array(z.object({ name: z.string() })) });

/** What a query ran on: the restated question the chat shows beside its answer. */
export const assistantQuery = z.object({
  warehouse_name: z.string(),
  client_name: z.string(),
  query_type: z.enum(ASSISTANT_QUERY_TYPES),
  label: z.string(),
  time_range: z.enum(ASSISTANT_ASK_TIME_RANGES),
  /** The business days covered (inclusive) in the warehouse's time zone. */
  from_date: z.string(),
  to_date: z.string(),
  timezone: z.string(),
});
export type AssistantQuery = z.infer<typeof assistantQuery>;

/**
 * Spec section 3: result.data is either one row [warehouse, client, count] or an object of rows
 * [warehouse, client, label, count] (a day of a trend, a status of All Orders); the total is the sum of counts.
 */
export const analysisData = z.union([
  z.tuple([z.string(), z.string(), z.number()]),
  z.record(z.string(), z.tuple([z.string(), z.string(), z.string(), z.number()])),
]);
export type AnalysisData = z.infer<typeof analysisData>;
export const orderAnalysisAnswer = z.object({ result: z.object({ data: analysisData, total: z.number(), query: assistantQuery }) });
export type OrderAnalysisAnswer = z.infer<typeof orderAnalysisAnswer>;

/** Spec section 7: response_code 200 is ok; the chart data is a bar per day for each order type. */
export const orderTypeCountsAnswer = z.object({ response_code: z.number().int(), response_message: z.string(), data: chartData.nullable() });
export type OrderTypeCountsAnswer = z.infer<typeof orderTypeCountsAnswer>;

/** Beyond the spec: a question in the user's own words, with the chat's current choices as context. */
export const askRequest = z.strictObject({
  question: field.text(500, 'Type a question').trim().min(1, 'Type a question'),
  warehouse_name: field.text(200).optional(),
  client_name: field.text(200).optional(),
});
export type AskRequest = z.input<typeof askRequest>;

export const askAnswer = z.union([
  z.object({ understood: z.literal(true), query: assistantQuery, result: orderAnalysisAnswer.shape.result }),
  z.object({
    understood: z.literal(false),
    /** What was not understood, said plainly. */
    message: z.string(),
    /** Which choice the guided chips should offer next. */
    ask: z.enum(['warehouse', 'client', 'query', 'time']),
    /** What was understood, for the chat to keep while it asks for the rest. */
    found: z.object({ warehouse_name: z.string(), client_name: z.string(), query_type: z.enum(ASSISTANT_QUERY_TYPES), time_range: z.enum(ASSISTANT_ASK_TIME_RANGES) }).partial(),
  }),
]);
export type AskAnswer = z.infer<typeof askAnswer>;
/** The chat's steps (spec section 4): warehouse, client, query, time, result. */
export type ChatStep = 'warehouse' | 'client' | 'query' | 'time' | 'result';
