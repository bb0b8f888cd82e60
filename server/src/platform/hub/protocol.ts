/**
 * The SignalR JSON hub protocol (version 1), as the official @microsoft/signalr client speaks it: every message
 * is a JSON text followed by the record separator 0x1E; one WebSocket frame may carry several records, and a
 * record may be split over frames.
 */
export const RECORD_SEPARATOR = '\x1e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

export interface HandshakeRequest { protocol: string; version: number }

export interface InvocationMessage {
  type: typeof MessageType.Invocation;
  target: string;
  arguments: unknown[];
  invocationId?: string;
}
export interface CompletionMessage {
  type: typeof MessageType.Completion;
  invocationId: string;
  result?: unknown;
  error?: string;
}
export interface CloseMessage { type: typeof MessageType.Close; error?: string; allowReconnect?: boolean }
export interface PingMessage { type: typeof MessageType.Ping }
/** Any other message a client may send (stream items, stream invocations, cancellations): read for its type. */
export interface OtherMessage { type: number; invocationId?: string }

export type HubMessage = InvocationMessage | CompletionMessage | CloseMessage | PingMessage | OtherMessage;

/** The largest record we accept; a client invoking our few small methods never comes near it. */
export const MAX_RECORD_CHARS = 64 * 1024;

export class ProtocolError extends Error {}

/**
 * Splits incoming text into whole records, keeping a trailing partial record for the next frame. Throws a
 * ProtocolError when a record grows past MAX_RECORD_CHARS, so a client cannot make us buffer without end.
 */
export class RecordReader {
  private pending = '';

  push(text: string): string[] {
    const parts = (this.pending + text).split(RECORD_SEPARATOR);
    this.pending = parts.pop()!;
    if (this.pending.length > MAX_RECORD_CHARS || parts.some((p) => p.length > MAX_RECORD_CHARS)) {
      throw new ProtocolError('Message too large');
    }
    return parts;
  }
}

/** The handshake's answer: null when accepted, otherwise the error text to send before closing. */
export function checkHandshake(record: string): string | null {
  let request: Partial<HandshakeRequest>;
  try {
    request = JSON.parse(record);
  } catch {
    return 'Handshake request is not valid JSON';
  }
  if (request?.protocol !== 'json') return `The protocol '${String(request?.protocol)}' is not supported.`;
  if (request.version !== 1) return `The server does not support version ${String(request.version)} of the 'json' protocol.`;
  return null;
}

/** Parses one record into a message with a numeric type; anything else is a protocol error. */
export function parseMessage(record: string): HubMessage {
  let message: unknown;
  try {
    message = JSON.parse(record);
  } catch {
    throw new ProtocolError('Message is not valid JSON');
  }
  if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'number') {
    throw new ProtocolError('Message has no type');
  }
  return message as HubMessage;
}

export function isInvocation(m: HubMessage): m is InvocationMessage {
  return m.type === MessageType.Invocation
    && typeof (m as InvocationMessage).target === 'string'
    && Array.isArray((m as InvocationMessage).arguments)
    && ((m as InvocationMessage).invocationId === undefined || typeof (m as InvocationMessage).invocationId === 'string');
}

export function frame(message: object): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

export const HANDSHAKE_OK = frame({});
export const PING_FRAME = frame({ type: MessageType.Ping });

export const handshakeError = (error: string) => frame({ error });
export const invocationFrame = (target: string, argument: unknown) => frame({ type: MessageType.Invocation, target, arguments: [argument] });
export const completionFrame = (invocationId: string, outcome: { result: unknown } | { error: string }) =>
  frame({ type: MessageType.Completion, invocationId, ...outcome });
export const closeFrame = (error?: string, allowReconnect = false) =>
  frame(error === undefined ? { type: MessageType.Close, allowReconnect } : { type: MessageType.Close, error, allowReconnect });
