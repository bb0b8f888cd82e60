import { forwardRef, useImperativeHandle, useRef, useState, type KeyboardEvent } from 'react';
import { Input, Typography, type InputRef } from 'antd';
import { ScanOutlined } from '@ant-design/icons';

export interface ScanBoxHandle { focus(): void }

export interface ScanBoxProps {
  label: string;
  /** What the next scan should be (shown above the box, large). */
  prompt: string;
  /** A refused scan's message (red, under the box). */
  error?: string;
  busy?: boolean;
  disabled?: boolean;
  /** Called with the box's text on Enter (empty for a bare Enter); the box is emptied for the next scan. */
  onScan(code: string): void;
}

/**
 * The handheld's scan box: a hardware scanner types the code and Enter. The box empties on every Enter (a
 * refusal is said under it), and takes the focus back whenever it is lost to nothing (a tap on the page, a closed
 * dialog), so the next scan always lands here.
 */
export const ScanBox = forwardRef<ScanBoxHandle, ScanBoxProps>(function ScanBox({ label, prompt, error, busy, disabled, onScan }, ref) {
  const input = useRef<InputRef>(null);
  const [code, setCode] = useState('');
  useImperativeHandle(ref, () => ({ focus: () => input.current?.focus() }), []);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    e.stopPropagation();
    // Read the DOM value: a scanner's keystrokes may arrive faster than React re-renders the state.
    const value = e.currentTarget.value;
    setCode('');
    onScan(value);
  };

  return (
    <div className="bolx-hh-scan">
      <Typography.Text strong className="bolx-hh-scan__prompt" aria-live="polite">{prompt}</Typography.Text>
      <Input
        ref={input}
        aria-label={label}
        size="large"
        prefix={<ScanOutlined />}
        value={code}
        status={error ? 'error' : undefined}
        autoFocus
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="go"
        disabled={disabled}
        onChange={(e) => setCode(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          // Focus lost to nothing (not to another field or button): take it back for the next scan.
          setTimeout(() => {
            const active = document.activeElement;
            if (!active || active === document.body) input.current?.focus();
          }, 0);
        }}
        suffix={busy ? <Typography.Text type="secondary">…</Typography.Text> : <span />}
      />
      {error && <Typography.Text type="danger" role="alert" className="bolx-hh-scan__error">{error}</Typography.Text>}
    </div>
  );
});
