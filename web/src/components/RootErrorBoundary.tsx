import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * Last line of defence around the whole app (the layout has its own boundary for screens). Plain markup: it must
 * render even when antd or a chunk failed to load. Texts are the spec's shell fallback texts.
 */
export class RootErrorBoundary extends Component<{ texts: { title: string; subtitle: string; hint: string; button: string }; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('App failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const { title, subtitle, hint, button } = this.props.texts;
    return (
      <main className="bolx-error-page" role="alert">
        <div className="bolx-root-error">
          <h1>{title}</h1>
          <p>{subtitle}</p>
          <p>{hint}</p>
          <button type="button" onClick={() => window.location.reload()}>
            {button}
          </button>
        </div>
      </main>
    );
  }
}
