import type { AssistantQuery, AssistantQueryType, AssistantTimeRange, ChatStep } from '@bolx/contracts';

/**
 * The chat's flow (spec sections 2 and 4) as a pure reducer: messages, the choices made so far, and the step being
 * asked. The widget does the calls and dispatches what they answered; everything about order, Rollback and Reset
 * lives here, where it is unit-tested.
 */

/** Spec section 3, chat flow state: the four choices, with the API's names. */
export interface ChatSelection { warehouse_name?: string; client_name?: string; query_type?: AssistantQueryType; time_range?: AssistantTimeRange }
export type AskStep = Exclude<ChatStep, 'result'>;
/** The guided order of the choices. */
export const STEPS: readonly AskStep[] = ['warehouse', 'client', 'query', 'time'];
const KEY: Record<AskStep, keyof ChatSelection> = { warehouse: 'warehouse_name', client: 'client_name', query: 'query_type', time: 'time_range' };

export interface Chip { label: string; value: string }
export interface ChatAnswer { query: AssistantQuery; total: number; rows: [label: string, count: number][] }

/** Spec section 3, chat message: message and isBot, plus what the widget draws beside it. */
export interface ChatMessage {
  id: number;
  message: string;
  isBot: boolean;
  /** A bot question: the step it asks for and its chips. */
  step?: AskStep;
  chips?: Chip[];
  /** A bot answer: the query that ran and its figures. */
  answer?: ChatAnswer;
  /** The choices as they stood when this message was said: what a Rollback returns to. */
  selection: ChatSelection;
}

export interface ChatState { messages: ChatMessage[]; selection: ChatSelection; step: ChatStep; nextId: number }

export const initialChat: ChatState = { messages: [], selection: {}, step: 'warehouse', nextId: 1 };

export type ChatAction =
  | { type: 'botAsked'; message: string; step: AskStep; chips: Chip[] }
  | { type: 'botSaid'; message: string }
  | { type: 'botAnswered'; message: string; answer: ChatAnswer }
  | { type: 'userChose'; step: AskStep; value: string; label: string }
  | { type: 'userTyped'; text: string }
  /** What a typed question was understood to mean, kept while the rest is asked. */
  | { type: 'understood'; found: ChatSelection }
  | { type: 'rolledBack'; messageId: number }
  | { type: 'reset' };

/** The first choice still to make, in the guided order; none: the query can run. */
export function missingStep(selection: ChatSelection): AskStep | null {
  return STEPS.find((s) => !selection[KEY[s]]) ?? null;
}

function say(state: ChatState, m: Omit<ChatMessage, 'id' | 'selection'>): ChatState {
  return { ...state, messages: [...state.messages, { ...m, id: state.nextId, selection: state.selection }], nextId: state.nextId + 1 };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'botAsked':
      return { ...say(state, { message: action.message, isBot: true, step: action.step, chips: action.chips }), step: action.step };
    case 'botSaid':
      return say(state, { message: action.message, isBot: true });
    case 'botAnswered': {
      const q = action.answer.query;
      // The answer's query becomes the choices (a typed question may have named other ones).
      const selection: ChatSelection = { warehouse_name: q.warehouse_name, client_name: q.client_name, query_type: q.query_type, time_range: q.time_range };
      return { ...say({ ...state, selection }, { message: action.message, isBot: true, answer: action.answer }), step: 'result' };
    }
    case 'userChose': {
      const key = KEY[action.step];
      let selection: ChatSelection = { ...state.selection, [key]: action.value };
      // A changed choice clears the ones after it (a new warehouse has other clients); a first one keeps them.
      if (state.selection[key] && state.selection[key] !== action.value) {
        for (const later of STEPS.slice(STEPS.indexOf(action.step) + 1)) selection = { ...selection, [KEY[later]]: undefined };
      }
      return { ...say(state, { message: action.label, isBot: false }), selection };
    }
    case 'userTyped':
      return say(state, { message: action.text, isBot: false });
    case 'understood':
      return { ...state, selection: { ...state.selection, ...action.found } };
    case 'rolledBack': {
      // Back to the question before this message, with the choices as they were when it was asked; back to the
      // first question, every choice is cleared.
      const at = state.messages.findIndex((m) => m.id === action.messageId);
      if (at <= 0) return state;
      let question = -1;
      for (let i = at - 1; i >= 0; i--) if (state.messages[i]!.step) { question = i; break; }
      const kept = question >= 0 ? question : 0;
      const target = state.messages[kept]!;
      return { ...state, messages: state.messages.slice(0, kept + 1), selection: kept < 2 ? {} : target.selection, step: target.step ?? 'warehouse' };
    }
    case 'reset':
      return initialChat;
  }
}

/** Whether a bot message offers Rollback: every bot message after the first. */
export const canRollBack = (state: ChatState, message: ChatMessage) => message.isBot && state.messages[0]?.id !== message.id;
