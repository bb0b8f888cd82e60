import type { AssistantQueryType, AssistantTimeRange } from '@bolx/contracts';

/**
 * A question in the user's own words, read by a small local grammar (no hosted service): the names it knows are the
 * caller's own warehouses and clients, so a name outside the caller's scope is never recognised. Every word must be
 * accounted for (a name, a query or time phrase, or a filler word); anything else is reported as not understood
 * rather than guessed past — "how many orders did Globex ship" from another client must not answer for its own.
 */

export interface Vocabulary { warehouses: readonly string[]; clients: readonly string[] }

export interface ParsedQuestion {
  queryType?: AssistantQueryType;
  timeRange?: AssistantTimeRange;
  warehouse?: string;
  client?: string;
  /** Words the grammar could not place, in the order typed. */
  unknown: string[];
}

/** Lower case, apostrophes and possessives dropped, punctuation as spaces. */
export function normalise(text: string): string {
  return ` ${text.toLowerCase().replace(/[’`]/g, "'").replace(/'s\b/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

const COMPANY_WORDS = new Set(['inc', 'ltd', 'llc', 'co', 'corp', 'corporation', 'company', 'gmbh', 'limited', 'plc', 'sa', 'ag', 'bv', 'the', 'dc', 'warehouse']);

/**
 * The phrases a name is known by, longest first: the whole name, the name without company words ("Fjord Outdoor"
 * for "Fjord Outdoor Co"), and its first word ("Fjord") unless that word is part of the grammar ("Ship" of
 * "Ship Shape Ltd"). A phrase two names share ("Acme" of "Acme Inc" and "Acme Europe") is neither's.
 */
function aliases(names: readonly string[]): { alias: string; name: string }[] {
  const all = names.map((name) => {
    const w = normalise(name).trim().split(' ').filter(Boolean);
    const set = new Set([w.join(' '), w.filter((x) => !COMPANY_WORDS.has(x)).join(' ')]);
    if (w[0] && w[0].length >= 3 && !FILLER.has(w[0]) && !isGrammar(w[0])) set.add(w[0]);
    return { name, set: [...set].filter(Boolean) };
  });
  const uses = new Map<string, number>();
  for (const { set } of all) for (const alias of set) uses.set(alias, (uses.get(alias) ?? 0) + 1);
  return all.flatMap(({ name, set }) => set.filter((alias) => uses.get(alias) === 1).map((alias) => ({ alias, name })))
    .sort((a, b) => b.alias.length - a.alias.length);
}

const isGrammar = (word: string) => [...QUERY_PHRASES, ...TIME_PHRASES].some(([, pattern]) => pattern.test(` ${word} `));

/** Finds the first (longest) known name in the text and takes its words out. */
function takeName(text: string, names: readonly string[]): { name?: string; rest: string } {
  for (const { alias, name } of aliases(names)) {
    const at = text.indexOf(` ${alias} `);
    if (at >= 0) return { name, rest: `${text.slice(0, at)} ${text.slice(at + alias.length + 1)}` };
  }
  return { rest: text };
}

const RO = String.raw`(?:ros?|receiving orders?|receivings?|receipts?|inbound(?: orders?| shipments?)?|asns?|deliveries|delivery|purchase orders?|pos)`;
const FINALIZED = String.raw`(?:finali[sz]e[sd]?|finali[sz]ing|complete[sd]?|closed|close|done|finished|wrapped up|signed off)`;
const ARRIVED = String.raw`(?:received|receive|arrived|arrive|came in|come in|checked in|landed|got in)`;

/** Query phrases, tried in order: the receiving ones first, since "receipts received" is not "orders received". */
const QUERY_PHRASES: [AssistantQueryType, RegExp][] = [
  ['RO Finalized', new RegExp(String.raw` (?:${RO} (?:(?:were|was|got|been|have been|that were) )?${FINALIZED}|${FINALIZED} ${RO}) `)],
  ['RO Received', new RegExp(String.raw` (?:${RO} (?:(?:were|was|got|been|that) )?${ARRIVED}|${ARRIVED} ${RO}|${RO}) `)],
  ['Orders Trend', / (?:orders? )?(?:trend|trends|trending|per day|daily|day by day|by day|each day|every day|over time)(?: of orders?)? /],
  ['All Orders', / (?:all (?:the )?orders?|every order|orders? by status|status breakdown|breakdown|overview|summary|by status|all statuses|status of orders?) /],
  ['Orders Shipped', / (?:orders? )?(?:shipped|ships|ship|shipping|shipments?|sent out|sent|dispatched|dispatch|went out|go out|out the door)(?: orders?)? /],
  ['Orders Processed', / (?:orders? )?(?:processed|process|processing|released|release|fulfilled|fulfil|fulfill|handled|worked)(?: orders?)? /],
  ['Order Received', / (?:orders? )?(?:received|receive|came in|come in|placed|created|new|got|get|incoming|entered|booked|taken|arrived)(?: orders?)? /],
  // "orders" with no verb: the orders that came in.
  ['Order Received', / (?:orders?|sales orders?|so) /],
];

const TIME_PHRASES: [AssistantTimeRange, RegExp][] = [
  ['yesterday', / (?:yesterday|yday|the day before today|(?:the )?(?:previous|prior) day) /],
  ['last week', / (?:(?:the )?(?:last|past|previous|prior) (?:calendar )?week|a week ago|the week before this one) /],
  ['last month', / (?:(?:the )?(?:last|past|previous|prior) (?:calendar )?month|a month ago|the month before this one) /],
  // "This week" runs from Monday to today, "this month" from the 1st (both in the warehouse's zone).
  ['this week', / (?:(?:this|the current|current) (?:calendar )?week|week to date|wtd) /],
  ['this month', / (?:(?:this|the current|current) (?:calendar )?month|month to date|mtd) /],
];

/** Words that carry no filter: question words, verbs of asking, articles, prepositions. */
const FILLER = new Set((
  'how many much what which was were is are be been being did do does done have has had the a an of for in at from by to on with and or ' +
  'we i me us our my you your they their it its this that there these those show tell give list count counts number numbers total totals ' +
  'please can could would will shall should let know see about volume figures figure stats statistics data chart graph report ' +
  'client customer clients customers account warehouse warehouses wh site building facility location hub ' +
  'sales during over within whats hows so far up out our any some all overall altogether quantity amount times time period range get got'
).split(' '));

export function parseQuestion(question: string, vocabulary: Vocabulary): ParsedQuestion {
  let text = normalise(question);
  const parsed: ParsedQuestion = { unknown: [] };
  // Names first (a client named "Ship Co" is a name, not a verb), the warehouse before the client only when it
  // is the longer phrase, so "Newark" in "Newark Outfitters" stays with the client.
  const client = takeName(text, vocabulary.clients);
  const warehouse = takeName(client.rest, vocabulary.warehouses);
  parsed.client = client.name;
  parsed.warehouse = warehouse.name;
  text = warehouse.rest;
  for (const [range, pattern] of TIME_PHRASES) {
    if (pattern.test(text)) { parsed.timeRange = range; text = text.replace(pattern, ' '); break; }
  }
  for (const [type, pattern] of QUERY_PHRASES) {
    if (pattern.test(` ${text} `)) {
      parsed.queryType = type;
      text = ` ${text} `.replace(pattern, ' ');
      break;
    }
  }
  parsed.unknown = text.split(' ').filter((w) => w && !FILLER.has(w) && !/^orders?$/.test(w));
  return parsed;
}
