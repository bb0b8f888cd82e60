import { Alert, Badge, Card, Drawer } from 'antd';
import { AppstoreAddOutlined, DatabaseOutlined, EnvironmentOutlined, ImportOutlined, ShoppingCartOutlined, TagsOutlined } from '@ant-design/icons';
import { useT } from '../../../lib/i18n/use-t';
import { useAppDispatch, useAppSelector } from '../../hooks';
import { addDataToggled } from '../../state/ui-slice';

/** Spec section 2, Add Data panel: the card grid. The upload forms arrive with the import module. */
const CARDS = [
  { key: 'orders', icon: <ShoppingCartOutlined />, mostUsed: true },
  { key: 'ro', icon: <ImportOutlined /> },
  { key: 'sku', icon: <TagsOutlined /> },
  { key: 'inventory', icon: <DatabaseOutlined /> },
  { key: 'locations', icon: <EnvironmentOutlined /> },
  { key: 'pallets', icon: <AppstoreAddOutlined /> },
];

export function AddDataDrawer() {
  const t = useT();
  const dispatch = useAppDispatch();
  const open = useAppSelector((s) => s.ui.addDataOpen);
  const rtl = useAppSelector((s) => s.settings.direction === 'rtl');
  return (
    <Drawer title={t('addData.title')} open={open} width={420} placement={rtl ? 'left' : 'right'} onClose={() => dispatch(addDataToggled(false))}>
      <Alert type="info" showIcon message={t('addData.placeholder')} style={{ marginBottom: 16 }} />
      <div className="bolx-add-data">
        {CARDS.map((card) => {
          const body = (
            <Card key={card.key} size="small" className="bolx-add-data__card">
              <span className="bolx-add-data__icon">{card.icon}</span>
              <span>{t(`addData.cards.${card.key}`)}</span>
            </Card>
          );
          return card.mostUsed ? (
            <Badge.Ribbon key={card.key} text={t('addData.mostUsed')}>
              {body}
            </Badge.Ribbon>
          ) : (
            body
          );
        })}
      </div>
    </Drawer>
  );
}
