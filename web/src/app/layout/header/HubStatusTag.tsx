import { Tooltip } from 'antd';
import { useT } from '../../../lib/i18n/use-t';
import { selectHubStatus, type HubStatus } from '../../../lib/hub/hub-slice';
import { useMediaQuery } from '../../../lib/use-media-query';
import { BREAKPOINTS } from '../../providers/ThemeProvider';
import { useAppSelector } from '../../../lib/hooks';
import './live.css';

/** Starts the connection again after the automatic reconnect gave up (loaded with the hub client, on demand). */
const reconnect = () => void import('../../../lib/hub/hub-session').then((m) => m.reconnectHub());

/**
 * The real-time connection state (spec section 4: Disconnected, Connecting, Connected, Reconnecting,
 * Disconnecting) as a coloured dot with a tooltip. Its name shows on wide screens when something is wrong, and
 * on the widest always, so a healthy connection does not take the page title's room. A lost connection can be
 * retried with a click.
 */
export function HubStatusTag({ wide }: { wide: boolean }) {
  const t = useT();
  const status: HubStatus = useAppSelector(selectHubStatus);
  const widest = useMediaQuery(`(min-width: ${BREAKPOINTS.xxl}px)`);
  const showLabel = widest || (wide && status !== 'Connected');
  const label = t(`hub.status.${status}`);
  const canRetry = status === 'Disconnected';
  return (
    <Tooltip title={<>{t('hub.tooltip.title', { status: label })}<br />{t(`hub.tooltip.${status}`)}</>}>
      <button
        type="button"
        className={`bolx-hub-status bolx-hub-status--${status.toLowerCase()}${showLabel ? '' : ' bolx-hub-status--dot'}`}
        data-hub-status={status}
        aria-label={t('hub.tooltip.title', { status: label })}
        aria-live="polite"
        aria-disabled={!canRetry}
        onClick={canRetry ? reconnect : undefined}
      >
        <span className="bolx-hub-status__dot" aria-hidden />
        {showLabel && <span className="bolx-hub-status__label">{label}</span>}
      </button>
    </Tooltip>
  );
}
