import type { ReactNode } from 'react';
import { Typography } from 'antd';

/** A location screen's title and one line saying what it is for. */
export function PageHeading({ title, subtitle, extra }: { title: string; subtitle?: string; extra?: ReactNode }) {
  return (
    <div className="bolx-page__heading bolx-loc-heading">
      <div>
        <Typography.Title level={3}>{title}</Typography.Title>
        {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
      </div>
      {extra}
    </div>
  );
}
