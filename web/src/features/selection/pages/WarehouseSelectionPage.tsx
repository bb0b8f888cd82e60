import { useNavigate } from 'react-router';
import { Card, Col, Empty, Progress, Row, Skeleton, Tag, Typography } from 'antd';
import { ClusterOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { warehouseSelected } from '../../../lib/state/auth-slice';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { isAdministrator } from '../../../lib/access';
import { useGetWarehouseClientQuery } from '../../../lib/api/user-module-api';
import { useT } from '../../../lib/i18n/use-t';
import { formatPercent, occupancyColor } from '../../../lib/occupancy';

/** Spec section 2, Warehouse selection: cards with the occupancy percentage coloured green / amber / red. */
export default function WarehouseSelectionPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const selected = useAppSelector(selectWarehouseId);
  const usertype = useAppSelector((s) => s.auth.usertype);
  const { data, isLoading } = useGetWarehouseClientQuery();
  const warehouses = data?.warehouseData ?? [];

  const choose = (warehouseId: number) => {
    dispatch(warehouseSelected(warehouseId));
    navigate('/Dashboard');
  };

  return (
    <div className="bolx-page bolx-selection">
      <div className="bolx-page__heading">
        <Typography.Title level={3}>{t('selection.warehouse.title')}</Typography.Title>
        <Typography.Text type="secondary">{t('selection.warehouse.subtitle')}</Typography.Text>
      </div>
      {isLoading ? (
        <Skeleton active />
      ) : !warehouses.length ? (
        <Empty description={t('selection.warehouse.empty')} />
      ) : (
        <Row gutter={[20, 20]}>
          {isAdministrator(usertype) && warehouses.length > 1 && (
            <Col xs={24} sm={12} xl={8}>
              <Card hoverable className={`bolx-choice-card${selected === 0 ? ' bolx-choice-card--selected' : ''}`} onClick={() => choose(0)}>
                <div className="bolx-choice-card__icon">
                  <ClusterOutlined />
                </div>
                <div className="bolx-choice-card__title">{t('selection.warehouse.all')}</div>
                <Typography.Paragraph type="secondary" className="bolx-choice-card__text">
                  {t('selection.warehouse.allDescription')}
                </Typography.Paragraph>
              </Card>
            </Col>
          )}
          {warehouses.map((w) => {
            const color = occupancyColor(w.occupancy);
            return (
              <Col key={w.warehouseId} xs={24} sm={12} xl={8}>
                <Card
                  hoverable
                  className={`bolx-choice-card bolx-warehouse-card${selected === w.warehouseId ? ' bolx-choice-card--selected' : ''}`}
                  onClick={() => choose(w.warehouseId)}
                >
                  <div className="bolx-warehouse-card__top">
                    <div>
                      <div className="bolx-choice-card__title">
                        {w.warehouseName}
                        {selected === w.warehouseId && <Tag color="blue">{t('selection.warehouse.selected')}</Tag>}
                      </div>
                      <Typography.Text type="secondary">
                        <Tag bordered={false}>{w.warehouseCode}</Tag>
                        {w.city && (
                          <>
                            <EnvironmentOutlined /> {w.city}
                          </>
                        )}
                      </Typography.Text>
                    </div>
                    <Progress
                      type="circle"
                      size={72}
                      percent={Math.min(100, w.occupancy)}
                      strokeColor={color}
                      format={() => <span style={{ color, fontWeight: 600, fontSize: 16 }}>{formatPercent(w.occupancy)}</span>}
                      aria-label={`${t('selection.warehouse.occupancy')} ${formatPercent(w.occupancy)}`}
                    />
                  </div>
                  <div className="bolx-warehouse-card__bottom">
                    <span>{t('selection.warehouse.occupancy')}</span>
                    <span>{t('selection.warehouse.locations', { used: w.usedLocations, total: w.totalLocations })}</span>
                  </div>
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
    </div>
  );
}
