import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result } from 'antd';
import { useT } from '../../lib/i18n/use-t';

/** Spec section 2: the content area's error fallback; 'Try Again' reloads the page. */
function Fallback() {
  const t = useT();
  return (
    <Result
      status="error"
      title={t('layout.error.title')}
      subTitle={
        <>
          {t('layout.error.subtitle')}
          <br />
          {t('layout.error.hint')}
        </>
      }
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('layout.error.tryAgain')}
        </Button>
      }
    />
  );
}

/** Catches a failing screen so the header and sidebar stay usable. Keyed by path, so navigating away resets it. */
export class ContentErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Screen failed to render', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <Fallback /> : this.props.children;
  }
}
