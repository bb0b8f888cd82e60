/**
 * The centred spinner shown while a screen's code loads (spec section 2). Plain CSS in antd's style rather than
 * antd's Spin, because it is on screen before any other code has loaded.
 */
export function FullPageSpinner({ fill = 'viewport' }: { fill?: 'viewport' | 'content' }) {
  return (
    <div className={`bolx-spinner bolx-spinner--${fill}`} role="status" aria-live="polite" aria-busy="true">
      <span className="bolx-spinner__dots" aria-hidden>
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}
