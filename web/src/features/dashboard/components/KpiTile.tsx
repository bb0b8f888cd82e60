import type { ReactNode } from 'react';
import { Card } from 'antd';
import { Link } from 'react-router';

interface KpiTileProps {
  label: string;
  value: string;
  icon: ReactNode;
  accent: string;
  hint?: ReactNode;
  loading?: boolean;
  /** The screen the tile's figure comes from: the whole tile links there. */
  to?: string;
}

export function KpiTile({ label, value, icon, accent, hint, loading, to }: KpiTileProps) {
  const card = (
    <Card className="bolx-kpi" loading={loading} hoverable={Boolean(to)}>
      <div className="bolx-kpi__body">
        <div>
          <div className="bolx-kpi__label">{label}</div>
          <div className="bolx-kpi__value">{value}</div>
          {hint && <div className="bolx-kpi__hint">{hint}</div>}
        </div>
        <span className="bolx-kpi__icon" style={{ color: accent, background: `${accent}1a` }}>
          {icon}
        </span>
      </div>
    </Card>
  );
  return to ? <Link to={to} className="bolx-kpi__link">{card}</Link> : card;
}
