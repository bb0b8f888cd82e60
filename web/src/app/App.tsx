import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import type { AppStore } from './store';
import { ThemeProvider } from './providers/ThemeProvider';
import { I18nProvider } from './providers/I18nProvider';
import { ConnectivityWatcher } from './ConnectivityWatcher';
import { HubConnector } from './HubConnector';
import { AppRoutes } from './router/AppRoutes';
import { LazyToastHost } from './LazyToastHost';
import { RootErrorBoundary } from '../components/RootErrorBoundary';
import { EN_US } from '../lib/i18n/en-US';

const ROOT_ERROR_TEXTS = {
  title: EN_US['layout.error.title'],
  subtitle: EN_US['layout.error.subtitle'],
  hint: EN_US['layout.error.hint'],
  button: EN_US['layout.error.tryAgain'],
};

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <I18nProvider>
        <ThemeProvider>
          <RootErrorBoundary texts={ROOT_ERROR_TEXTS}>
            <BrowserRouter>
              <ConnectivityWatcher />
              <HubConnector />
              <AppRoutes />
              <LazyToastHost />
            </BrowserRouter>
          </RootErrorBoundary>
        </ThemeProvider>
      </I18nProvider>
    </Provider>
  );
}
