import { useCallback, useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { Avatar, Button, Input, Tag, Tooltip, theme } from 'antd';
import { CloseOutlined, RobotOutlined, RollbackOutlined, SendOutlined, BarChartOutlined } from '@ant-design/icons';
import {
  ASSISTANT_QUERY_LABELS, ASSISTANT_QUERY_TYPES, ASSISTANT_TIME_RANGES, type AssistantQuery, type ChartData, type OrderAnalysisAnswer,
} from '@bolx/contracts';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { chatToggled } from '../../../lib/state/ui-slice';
import { themePresetById } from '../../../lib/theme/presets';
import { useT, type Translate } from '../../../lib/i18n/use-t';
import {
  useAskQuestionMutation, useGetAssistantWarehousesMutation, useGetWarehouseClientsMutation, useOrderAnalysisMutation, useOrderTypeCountsMutation,
} from '../assistant-api';
import { STEPS, canRollBack, chatReducer, initialChat, missingStep, type AskStep, type ChatAnswer, type ChatSelection, type Chip } from '../chat-flow';
import { ChatChartModal } from './ChatChartModal';
import { TypingDots } from './TypingDots';
import '../messages';
import '../assistant.css';

const QUERY_CHIPS: Chip[] = ASSISTANT_QUERY_TYPES.map((q) => ({ value: q, label: ASSISTANT_QUERY_LABELS[q] }));
const TIME_CHIPS: Chip[] = ASSISTANT_TIME_RANGES.map((r) => ({ value: r, label: r }));

/** An answer's rows as [label, count]: one row of a single figure has no label of its own. */
function answerOf(result: OrderAnalysisAnswer['result']): ChatAnswer {
  const rows: [string, number][] = Array.isArray(result.data) ? [] : Object.values(result.data).map((r) => [r[2], r[3]]);
  return { query: result.query, total: result.total, rows };
}

const answerText = (t: Translate, q: AssistantQuery, total: number) =>
  t('assistant.answer', { label: q.label, client: q.client_name, warehouse: q.warehouse_name, range: q.time_range, total });
const queryText = (t: Translate, q: AssistantQuery) => t('assistant.ranQuery', {
  label: q.label, client: q.client_name, warehouse: q.warehouse_name, from: q.from_date, to: q.to_date === q.from_date ? '' : ` to ${q.to_date}`, range: q.time_range, zone: q.timezone,
});

/**
 * The chat assistant (spec sections 2, 8, 9): a 400x570 pop-up at the bottom right. The guided flow asks warehouse,
 * client, query and time with chips and answers from /API; a typed question is read on the server and answered the
 * same way, with the query that ran shown. Rollback, Reset Chat and the chart modal are the spec's.
 */
export default function ChatWidget() {
  const t = useT();
  const dispatch = useAppDispatch();
  const dark = useAppSelector((s) => themePresetById(s.settings.themePresetId).mode === 'dark');
  const { token } = theme.useToken();
  const [state, send] = useReducer(chatReducer, initialChat);
  const [typing, setTyping] = useState(false);
  const [text, setText] = useState('');
  const [chart, setChart] = useState<{ data: ChartData; title: string } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const warehouses = useRef<string[]>([]);
  const [loadWarehouses] = useGetAssistantWarehousesMutation();
  const [loadClients] = useGetWarehouseClientsMutation();
  const [analyse] = useOrderAnalysisMutation();
  const [typeCounts] = useOrderTypeCountsMutation();
  const [askQuestion] = useAskQuestionMutation();

  /** While a call runs, the typing dots show. */
  const busy = useCallback(async <T,>(work: () => Promise<T>) => {
    setTyping(true);
    try { return await work(); } finally { setTyping(false); }
  }, []);

  const askWarehouse = useCallback(async () => {
    const list = await busy(() => loadWarehouses().unwrap().then((r) => r.warehouses).catch((error: unknown) => {
      console.error('Assistant: the warehouses could not be loaded', error); // spec section 8: only logged
      return [] as string[];
    }));
    warehouses.current = list;
    send({ type: 'botAsked', step: 'warehouse', message: t(list.length ? 'assistant.ask.warehouse' : 'assistant.noWarehouses'), chips: list.map((w) => ({ value: w, label: w })) });
  }, [busy, loadWarehouses, t]);

  /** Asks for the next missing choice, or runs the query when none is missing. */
  const next = useCallback(async (selection: ChatSelection, step: AskStep | null = missingStep(selection)) => {
    if (step === 'warehouse') {
      send({ type: 'botAsked', step, message: t('assistant.ask.warehouse'), chips: warehouses.current.map((w) => ({ value: w, label: w })) });
    } else if (step === 'client') {
      const clients = await busy(() => loadClients({ warehouse_name: selection.warehouse_name! }).unwrap().then((r) => r.clients).catch(() => null));
      if (!clients?.length) send({ type: 'botSaid', message: t('assistant.clientsFailed') });
      else send({ type: 'botAsked', step, message: t('assistant.ask.client', { warehouse: selection.warehouse_name! }), chips: clients.map((c) => ({ value: c.name, label: c.name })) });
    } else if (step === 'query') {
      send({ type: 'botAsked', step, message: t('assistant.ask.query', { client: selection.client_name! }), chips: QUERY_CHIPS });
    } else if (step === 'time') {
      send({ type: 'botAsked', step, message: t('assistant.ask.time'), chips: TIME_CHIPS });
    } else {
      const { warehouse_name, client_name, query_type, time_range } = selection as Required<ChatSelection>;
      const result = await busy(() => analyse({ warehouse_name, client_name, query_type, time_range, chart_type: 'bar' }).unwrap().then((r) => r.result).catch(() => null));
      if (!result) { send({ type: 'botSaid', message: t('assistant.analysisFailed') }); return; }
      send({ type: 'botAnswered', message: answerText(t, result.query, result.total), answer: answerOf(result) });
      send({ type: 'botAsked', step: 'query', message: t('assistant.ask.again', { client: client_name }), chips: QUERY_CHIPS });
    }
  }, [analyse, busy, loadClients, t]);

  // The first question on opening, and again after Reset Chat (once, however often the effect runs).
  const greeting = useRef(false);
  useEffect(() => {
    if (state.messages.length > 0 || greeting.current) return;
    greeting.current = true;
    void askWarehouse().finally(() => { greeting.current = false; });
  }, [state.messages.length, askWarehouse]);
  // Spec section 4: the list scrolls to the bottom on each update.
  useEffect(() => { listRef.current?.scrollTo({ top: listRef.current.scrollHeight }); }, [state.messages, typing]);

  const choose = (step: AskStep, chip: Chip) => {
    const selection = chatReducer(state, { type: 'userChose', step, value: chip.value, label: chip.label }).selection;
    send({ type: 'userChose', step, value: chip.value, label: chip.label });
    void next(selection);
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const question = text.trim();
    if (!question || typing) return;
    setText('');
    send({ type: 'userTyped', text: question });
    const answer = await busy(() => askQuestion({ question, warehouse_name: state.selection.warehouse_name, client_name: state.selection.client_name }).unwrap().catch(() => null));
    if (!answer) { send({ type: 'botSaid', message: t('assistant.analysisFailed') }); return; }
    if (answer.understood) {
      send({ type: 'botAnswered', message: answerText(t, answer.query, answer.result.total), answer: answerOf(answer.result) });
      send({ type: 'botAsked', step: 'query', message: t('assistant.ask.again', { client: answer.query.client_name }), chips: QUERY_CHIPS });
      return;
    }
    // Not understood: say so, keep what was, and offer the chips of the choice to make.
    send({ type: 'understood', found: answer.found });
    send({ type: 'botSaid', message: answer.message });
    // The chips of the earliest choice missing: a client cannot be offered before its warehouse.
    const selection = { ...state.selection, ...answer.found };
    const first = missingStep(selection);
    void next(selection, first && STEPS.indexOf(first) < STEPS.indexOf(answer.ask) ? first : answer.ask);
  };

  const openChart = async (q: AssistantQuery) => {
    const { warehouse_name, client_name, query_type, time_range } = q;
    const res = await busy(() => typeCounts({ warehouse_name, client_name, query_type, time_range, chart_type: 'bar' }).unwrap().catch((error: unknown) => {
      console.error('Assistant: the chart could not be loaded', error); // spec section 8: only logged
      return null;
    }));
    if (res && res.response_code !== 200) console.error('Assistant:', res.response_message);
    if (res?.response_code === 200 && res.data) setChart({ data: res.data, title: t('assistant.chartTitle', { label: q.label, client: q.client_name }) });
    else send({ type: 'botSaid', message: t('assistant.chartFailed') });
  };

  const last = state.messages[state.messages.length - 1];
  return (
    <section
      className="bolx-chat"
      role="dialog"
      aria-label={t('assistant.title')}
      data-testid="chat-widget"
      // The theme's colours (light or dark) for the pop-up's own CSS.
      style={{ ['--bolx-chat-bg' as string]: token.colorBgContainer, ['--bolx-chat-text' as string]: token.colorText, ['--bolx-chat-line' as string]: token.colorBorderSecondary }}
    >
      <header className="bolx-chat__header">
        <Avatar icon={<RobotOutlined />} className="bolx-chat__avatar" />
        <div className="bolx-chat__heading">
          <strong>{t('assistant.title')}</strong>
          <span className="bolx-chat__status"><span className="bolx-chat__online" />{t('assistant.status')}</span>
        </div>
        <Button size="small" disabled={typing} onClick={() => { send({ type: 'reset' }); setText(''); }}>{t('assistant.reset')}</Button>
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('assistant.close')} onClick={() => dispatch(chatToggled(false))} />
      </header>
      <div className="bolx-chat__messages" ref={listRef} data-testid="chat-messages">
        {state.messages.map((m) => (
          <div key={m.id} className={`bolx-chat__row bolx-chat__row--${m.isBot ? 'bot' : 'user'}`}>
            <div className={`bolx-chat__bubble bolx-chat__bubble--${m.isBot ? 'bot' : 'user'}`} data-testid={m.isBot ? 'chat-bot' : 'chat-user'}>
              <div>{m.message}</div>
              {m.answer && <AnswerDetails answer={m.answer} t={t} />}
              {m.answer && (
                <Button size="small" icon={<BarChartOutlined />} className="bolx-chat__chart-button" onClick={() => void openChart(m.answer!.query)}>
                  {t('assistant.viewChart')}
                </Button>
              )}
              {m.id === last?.id && m.step && m.chips && (
                <div className="bolx-chat__chips">
                  {m.chips.map((c) => <Tag.CheckableTag key={c.value} checked={false} className="bolx-chat__chip" onChange={() => !typing && choose(m.step!, c)}>{c.label}</Tag.CheckableTag>)}
                </div>
              )}
            </div>
            {canRollBack(state, m) && (
              <Tooltip title={t('assistant.rollback')}>
                <Button type="link" size="small" icon={<RollbackOutlined />} className="bolx-chat__rollback" disabled={typing} onClick={() => send({ type: 'rolledBack', messageId: m.id })}>
                  {t('assistant.rollback')}
                </Button>
              </Tooltip>
            )}
          </div>
        ))}
        {typing && <TypingDots label={t('assistant.typing')} />}
      </div>
      <form className="bolx-chat__input" onSubmit={(e) => void submit(e)}>
        <Input value={text} maxLength={500} onChange={(e) => setText(e.target.value)} placeholder={t('assistant.placeholder')} aria-label={t('assistant.placeholder')} />
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} aria-label={t('assistant.send')} disabled={!text.trim() || typing} />
      </form>
      <ChatChartModal chart={chart?.data ?? null} title={chart?.title ?? ''} dark={dark} onClose={() => setChart(null)} />
    </section>
  );
}

/** The query that ran, and the rows of a many-row answer (a status or a day each). */
function AnswerDetails({ answer, t }: { answer: ChatAnswer; t: Translate }) {
  return (
    <>
      <div className="bolx-chat__query" data-testid="chat-query">{queryText(t, answer.query)}</div>
      {answer.rows.length > 0 && answer.rows.length <= 10 && (
        <table className="bolx-chat__rows"><tbody>{answer.rows.map(([label, n]) => <tr key={label}><td>{label}</td><td>{n}</td></tr>)}</tbody></table>
      )}
    </>
  );
}
