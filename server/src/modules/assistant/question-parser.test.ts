import { describe, expect, it } from 'vitest';
import { parseQuestion, type ParsedQuestion } from './question-parser.js';

const vocabulary = {
  warehouses: ['Newark DC', 'Reno', 'Newcastle Hub'],
  clients: ['Fjord Outdoor Co', 'Globex Corp', 'Ship Shape Ltd', 'Acme Inc', 'Acme Europe GmbH'],
};

type Expect = Omit<ParsedQuestion, 'unknown'> & { unknown?: string[] };
// phrasing → the intent and filters it must give (absent: none found); unknown words: [] unless listed.
const TABLE: [string, Expect][] = [
  // Orders shipped
  ['how many orders did Fjord ship last week?', { queryType: 'Orders Shipped', client: 'Fjord Outdoor Co', timeRange: 'last week' }],
  ['orders shipped yesterday', { queryType: 'Orders Shipped', timeRange: 'yesterday' }],
  ['What did Globex ship last month in Reno', { queryType: 'Orders Shipped', client: 'Globex Corp', timeRange: 'last month', warehouse: 'Reno' }],
  ['shipments for fjord outdoor yesterday', { queryType: 'Orders Shipped', client: 'Fjord Outdoor Co', timeRange: 'yesterday' }],
  ['how many orders went out the previous week at Newark', { queryType: 'Orders Shipped', timeRange: 'last week', warehouse: 'Newark DC' }],
  ['Fjord’s orders dispatched in the past month', { queryType: 'Orders Shipped', client: 'Fjord Outdoor Co', timeRange: 'last month' }],
  ['number of orders sent out yesterday from Newark DC', { queryType: 'Orders Shipped', timeRange: 'yesterday', warehouse: 'Newark DC' }],
  ['shipped orders, last week, Acme Europe', { queryType: 'Orders Shipped', timeRange: 'last week', client: 'Acme Europe GmbH' }],
  ['Acme Inc shipping during the last month', { queryType: 'Orders Shipped', client: 'Acme Inc', timeRange: 'last month' }],
  ['did Ship Shape ship anything yesterday', { queryType: 'Orders Shipped', client: 'Ship Shape Ltd', timeRange: 'yesterday', unknown: ['anything'] }],
  ['SHIPPED YESTERDAY GLOBEX', { queryType: 'Orders Shipped', client: 'Globex Corp', timeRange: 'yesterday' }],
  // Orders received
  ['how many orders did we get yesterday', { queryType: 'Order Received', timeRange: 'yesterday' }],
  ['orders received last week for Globex', { queryType: 'Order Received', timeRange: 'last week', client: 'Globex Corp' }],
  ['new orders last month in Newcastle', { queryType: 'Order Received', timeRange: 'last month', warehouse: 'Newcastle Hub' }],
  ['How many orders came in yesterday?', { queryType: 'Order Received', timeRange: 'yesterday' }],
  ['orders placed by Fjord in the previous month', { queryType: 'Order Received', client: 'Fjord Outdoor Co', timeRange: 'last month' }],
  ['incoming orders last week', { queryType: 'Order Received', timeRange: 'last week' }],
  ['Fjord orders yesterday', { queryType: 'Order Received', client: 'Fjord Outdoor Co', timeRange: 'yesterday' }],
  ['total orders for Acme Inc last month', { queryType: 'Order Received', client: 'Acme Inc', timeRange: 'last month' }],
  ['orders created in Reno yesterday', { queryType: 'Order Received', warehouse: 'Reno', timeRange: 'yesterday' }],
  ['how many sales orders were booked last week', { queryType: 'Order Received', timeRange: 'last week' }],
  // Orders processed
  ['orders processed yesterday', { queryType: 'Orders Processed', timeRange: 'yesterday' }],
  ['how many orders did Newark process last week', { queryType: 'Orders Processed', warehouse: 'Newark DC', timeRange: 'last week' }],
  ['released orders for Globex last month', { queryType: 'Orders Processed', client: 'Globex Corp', timeRange: 'last month' }],
  ['orders fulfilled yesterday for fjord', { queryType: 'Orders Processed', timeRange: 'yesterday', client: 'Fjord Outdoor Co' }],
  ['What was processed in the prior week?', { queryType: 'Orders Processed', timeRange: 'last week' }],
  ['processing volume last month at Reno', { queryType: 'Orders Processed', timeRange: 'last month', warehouse: 'Reno' }],
  // Receiving orders received
  ['receipts yesterday in Newark', { queryType: 'RO Received', timeRange: 'yesterday', warehouse: 'Newark DC' }],
  ['how many ROs were received last week', { queryType: 'RO Received', timeRange: 'last week' }],
  ['receiving orders received last month for Fjord', { queryType: 'RO Received', timeRange: 'last month', client: 'Fjord Outdoor Co' }],
  ['inbound shipments that arrived yesterday', { queryType: 'RO Received', timeRange: 'yesterday' }],
  ['how many deliveries came in last week at Reno', { queryType: 'RO Received', timeRange: 'last week', warehouse: 'Reno' }],
  ['ASNs received for Globex in the past month', { queryType: 'RO Received', client: 'Globex Corp', timeRange: 'last month' }],
  ['RO received yesterday', { queryType: 'RO Received', timeRange: 'yesterday' }],
  // Receiving orders finalized
  ['receipts finalized yesterday in Newark', { queryType: 'RO Finalized', timeRange: 'yesterday', warehouse: 'Newark DC' }],
  ['how many ROs were finalised last week', { queryType: 'RO Finalized', timeRange: 'last week' }],
  ['completed receiving orders last month', { queryType: 'RO Finalized', timeRange: 'last month' }],
  ['RO Finalized yesterday for Fjord', { queryType: 'RO Finalized', timeRange: 'yesterday', client: 'Fjord Outdoor Co' }],
  ['inbound orders closed the previous month in Reno', { queryType: 'RO Finalized', timeRange: 'last month', warehouse: 'Reno' }],
  ['receipts done last week acme inc', { queryType: 'RO Finalized', timeRange: 'last week', client: 'Acme Inc' }],
  // Trend
  ['orders trend last month', { queryType: 'Orders Trend', timeRange: 'last month' }],
  ['show me orders per day last week for Globex', { queryType: 'Orders Trend', timeRange: 'last week', client: 'Globex Corp' }],
  ['daily orders last month in Newark', { queryType: 'Orders Trend', timeRange: 'last month', warehouse: 'Newark DC' }],
  ['how did Fjord orders trend over the past week', { queryType: 'Orders Trend', client: 'Fjord Outdoor Co', timeRange: 'last week' }],
  ['orders by day yesterday', { queryType: 'Orders Trend', timeRange: 'yesterday' }],
  // All orders
  ['all orders last week', { queryType: 'All Orders', timeRange: 'last week' }],
  ['orders by status for Globex last month', { queryType: 'All Orders', client: 'Globex Corp', timeRange: 'last month' }],
  ['give me an overview of yesterday in Reno', { queryType: 'All Orders', timeRange: 'yesterday', warehouse: 'Reno' }],
  ['status breakdown of Fjord orders last week', { queryType: 'All Orders', client: 'Fjord Outdoor Co', timeRange: 'last week' }],
  ['summary for acme europe the previous month', { queryType: 'All Orders', client: 'Acme Europe GmbH', timeRange: 'last month' }],
  // Pieces missing: what is there is still found.
  ['Fjord last week', { client: 'Fjord Outdoor Co', timeRange: 'last week' }],
  ['orders shipped', { queryType: 'Orders Shipped' }],
  ['Newark', { warehouse: 'Newark DC' }],
  // Not understood: the words are named, never guessed past.
  ['how many orders did Initech ship yesterday', { queryType: 'Orders Shipped', timeRange: 'yesterday', unknown: ['initech'] }],
  // This week and this month (typed questions only; the chips offer the spec's three).
  ['orders shipped this week', { queryType: 'Orders Shipped', timeRange: 'this week' }],
  ['how many orders did Fjord get this month', { queryType: 'Order Received', client: 'Fjord Outdoor Co', timeRange: 'this month' }],
  ['receipts finalized in the current week at Reno', { queryType: 'RO Finalized', timeRange: 'this week', warehouse: 'Reno' }],
  ['Globex orders trend month to date', { queryType: 'Orders Trend', client: 'Globex Corp', timeRange: 'this month' }],
  ['all orders this calendar month for acme inc', { queryType: 'All Orders', timeRange: 'this month', client: 'Acme Inc' }],
  ['what did Newark process this week', { queryType: 'Orders Processed', warehouse: 'Newark DC', timeRange: 'this week' }],
  ['orders shipped next week', { queryType: 'Orders Shipped', unknown: ['next', 'week'] }],
  ['orders shipped in the last 7 days', { queryType: 'Orders Shipped', unknown: ['last', '7', 'days'] }],
  ['what is the weather like', { unknown: ['weather', 'like'] }],
  ['orders shipped tomorrow', { queryType: 'Orders Shipped', unknown: ['tomorrow'] }],
  ['', {}],
];

describe('the assistant’s question grammar', () => {
  it('holds at least 50 phrasings', () => expect(TABLE.length).toBeGreaterThanOrEqual(50));

  it.each(TABLE)('%s', (question, want) => {
    const got = parseQuestion(question, vocabulary);
    expect(got).toEqual({ queryType: want.queryType, timeRange: want.timeRange, warehouse: want.warehouse, client: want.client, unknown: want.unknown ?? [] });
  });

  it('knows only the names it is given: a client outside the vocabulary stays unknown', () => {
    const own = { warehouses: ['Newark DC'], clients: ['Fjord Outdoor Co'] };
    expect(parseQuestion('how many orders did Globex ship yesterday', own)).toMatchObject({ client: undefined, unknown: ['globex'] });
  });

  it('a first word shared by two clients is not an alias of either', () => {
    expect(parseQuestion('acme orders yesterday', vocabulary)).toMatchObject({ client: undefined, unknown: ['acme'] });
  });
});
