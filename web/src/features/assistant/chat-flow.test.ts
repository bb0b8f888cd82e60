import { describe, expect, it } from 'vitest';
import type { AssistantQuery } from '@bolx/contracts';
import { canRollBack, chatReducer, initialChat, missingStep, type ChatAction, type ChatState } from './chat-flow';
import { TYPING_DOT_DELAYS_MS } from './components/TypingDots';

const run = (actions: ChatAction[], from: ChatState = initialChat) => actions.reduce(chatReducer, from);
const chips = (...values: string[]) => values.map((value) => ({ value, label: value }));
const guided: ChatAction[] = [
  { type: 'botAsked', step: 'warehouse', message: 'Which warehouse?', chips: chips('Newark DC', 'Reno') },
  { type: 'userChose', step: 'warehouse', value: 'Newark DC', label: 'Newark DC' },
  { type: 'botAsked', step: 'client', message: 'Which client?', chips: chips('Fjord') },
  { type: 'userChose', step: 'client', value: 'Fjord', label: 'Fjord' },
  { type: 'botAsked', step: 'query', message: 'What?', chips: chips('Orders Shipped') },
  { type: 'userChose', step: 'query', value: 'Orders Shipped', label: 'Orders Shipped' },
  { type: 'botAsked', step: 'time', message: 'When?', chips: chips('last week') },
];
const query: AssistantQuery = {
  warehouse_name: 'Reno', client_name: 'Globex', query_type: 'Order Received', label: 'Orders Received', time_range: 'yesterday', from_date: '2026-11-25', to_date: '2026-11-25', timezone: 'UTC',
};

describe('the chat flow', () => {
  it('walks warehouse → client → query → time, keeping each choice', () => {
    const s = run(guided);
    expect(s.selection).toEqual({ warehouse_name: 'Newark DC', client_name: 'Fjord', query_type: 'Orders Shipped' });
    expect(s.step).toBe('time');
    expect(missingStep(s.selection)).toBe('time');
    expect(s.messages.map((m) => [m.isBot, m.message])).toEqual([
      [true, 'Which warehouse?'], [false, 'Newark DC'], [true, 'Which client?'], [false, 'Fjord'], [true, 'What?'], [false, 'Orders Shipped'], [true, 'When?'],
    ]);
    const done = run([{ type: 'userChose', step: 'time', value: 'last week', label: 'last week' }], s);
    expect(missingStep(done.selection)).toBeNull();
  });

  it('Rollback steps back to the question before, with the choices as they stood', () => {
    const s = run(guided);
    const back = chatReducer(s, { type: 'rolledBack', messageId: s.messages[6]!.id });
    expect(back.messages).toHaveLength(5);
    expect(back.step).toBe('query');
    expect(back.selection).toEqual({ warehouse_name: 'Newark DC', client_name: 'Fjord' });
  });

  it('going back to the first two messages clears the selections', () => {
    const s = run(guided);
    const back = chatReducer(s, { type: 'rolledBack', messageId: s.messages[2]!.id });
    expect(back.messages).toHaveLength(1);
    expect(back.selection).toEqual({});
    expect(back.step).toBe('warehouse');
  });

  it('offers Rollback on every bot message after the first, and Reset Chat starts over', () => {
    const s = run(guided);
    expect(s.messages.map((m) => canRollBack(s, m))).toEqual([false, false, true, false, true, false, true]);
    expect(chatReducer(s, { type: 'reset' })).toEqual(initialChat);
  });

  it('a changed choice clears the later ones; a first one keeps them', () => {
    const s = run(guided);
    expect(chatReducer(s, { type: 'userChose', step: 'warehouse', value: 'Reno', label: 'Reno' }).selection).toEqual({ warehouse_name: 'Reno' });
    const typed = run([{ type: 'understood', found: { client_name: 'Fjord', query_type: 'Orders Shipped', time_range: 'yesterday' } }]);
    expect(chatReducer(typed, { type: 'userChose', step: 'warehouse', value: 'Reno', label: 'Reno' }).selection)
      .toEqual({ warehouse_name: 'Reno', client_name: 'Fjord', query_type: 'Orders Shipped', time_range: 'yesterday' });
  });

  it('an answer takes its query as the choices (a typed question may name others)', () => {
    const s = run([...guided, { type: 'botAnswered', message: 'Orders Received: 3', answer: { query, total: 3, rows: [] } }]);
    expect(s.selection).toEqual({ warehouse_name: 'Reno', client_name: 'Globex', query_type: 'Order Received', time_range: 'yesterday' });
    expect(s.step).toBe('result');
    expect(s.messages.at(-1)).toMatchObject({ isBot: true, answer: { total: 3 } });
  });

  it('the typing indicator’s dots start at 0, 150 and 300 ms', () => expect(TYPING_DOT_DELAYS_MS).toEqual([0, 150, 300]));
});
