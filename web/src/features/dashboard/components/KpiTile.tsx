import type { ReactNode } from 'react';
import { Card } from 'antd';

interface KpiTileProps {
  label: string;
  value: string;
  icon: ReactNode;
  accent: string;
  hint?: ReactNode;
  loading?: boolean;
}

export function KpiTile({ label, value, icon, accent, hint, loading }: KpiTileProps) {
  return (
    <Card className="bolx-kpi" loading={loading}>
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
}
