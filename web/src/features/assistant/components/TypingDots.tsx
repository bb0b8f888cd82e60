/** Spec section 9: the typing indicator, three dots with delays of 0, 150 and 300 ms. */
export const TYPING_DOT_DELAYS_MS = [0, 150, 300] as const;

export function TypingDots({ label }: { label: string }) {
  return (
    <div className="bolx-chat__bubble bolx-chat__bubble--bot bolx-chat__typing" role="status" aria-label={label} data-testid="chat-typing">
      {TYPING_DOT_DELAYS_MS.map((delay) => <span key={delay} className="bolx-chat__dot" style={{ animationDelay: `${delay}ms` }} />)}
    </div>
  );
}
