import { useState, type ReactNode } from 'react';
import { Badge, Button, Card, Drawer } from 'antd';
import { AppstoreAddOutlined, ArrowLeftOutlined, DatabaseOutlined, EnvironmentOutlined, ImportOutlined, ShoppingCartOutlined, TagsOutlined } from '@ant-design/icons';
import { useT } from '../../../../lib/i18n/use-t';
import { useAppDispatch, useAppSelector } from '../../../../lib/hooks';
import { addDataToggled } from '../../../../lib/state/ui-slice';
import { runningKinds } from '../../../../lib/state/uploads-slice';
import { useMayAccess } from '../../../../lib/use-access';
import { offeredCards, type CardKey } from './cards';
import { InventoryForm } from './InventoryForm';
import { LocationForm } from './LocationForm';
import { RoForm } from './RoForm';
import { SkuForm } from './SkuForm';
import { OrderForm } from './OrderForm';
import { PalletForm } from './PalletForm';
import { UploadProgressStack } from './UploadProgressStack';
import './messages';
import './add-data.css';

const ICONS: Record<CardKey, ReactNode> = {
  orders: <ShoppingCartOutlined />,
  ro: <ImportOutlined />,
  sku: <TagsOutlined />,
  inventory: <DatabaseOutlined />,
  locations: <EnvironmentOutlined />,
  pallets: <AppstoreAddOutlined />,
};

/** The panel (drawer with the card grid and one form at a time) and the floating progress cards. */
export default function AddDataPanel() {
  const t = useT();
  const dispatch = useAppDispatch();
  const open = useAppSelector((s) => s.ui.addDataOpen);
  const rtl = useAppSelector((s) => s.settings.direction === 'rtl');
  const running = useAppSelector((s) => runningKinds(s.uploads));
  const [chosen, setChosen] = useState<CardKey | null>(null);
  // Only the forms whose calls the server would allow this account (cards.ts).
  const cards = offeredCards(useMayAccess());
  const back = () => setChosen(null);

  const form = (() => {
    switch (chosen) {
      case 'orders': return <OrderForm onStarted={back} />;
      case 'ro': return <RoForm onStarted={back} />;
      case 'sku': return <SkuForm onStarted={back} />;
      case 'inventory': return <InventoryForm onStarted={back} />;
      case 'locations': return <LocationForm onStarted={back} />;
      case 'pallets': return <PalletForm onStarted={back} />;
      default: return null;
    }
  })();

  const title = chosen ? (
    <span className="bolx-add-data__title">
      <Button type="text" size="small" icon={<ArrowLeftOutlined />} aria-label={t('addData.back')} onClick={back} />
      {t(`addData.cards.${chosen}`)}
    </span>
  ) : t('addData.title');

  return (
    <>
      <Drawer
        title={title}
        open={open}
        width={420}
        placement={rtl ? 'left' : 'right'}
        onClose={() => dispatch(addDataToggled(false))}
        afterOpenChange={(visible) => { if (!visible) back(); }}
        className="bolx-add-data-drawer"
      >
        {form ?? (
          <div className="bolx-add-data" data-testid="add-data-grid">
            {cards.map((card) => {
              const uploading = running.includes(card.kind);
              const body = (
                <Card key={card.key} size="small" hoverable className="bolx-add-data__card" role="button" tabIndex={0}
                  onClick={() => setChosen(card.key)} onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') setChosen(card.key); }}>
                  <span className="bolx-add-data__icon">{ICONS[card.key]}</span>
                  <span>{t(`addData.cards.${card.key}`)}</span>
                  {uploading && <Badge status="processing" text={t('addData.uploading')} className="bolx-add-data__uploading" />}
                </Card>
              );
              return card.mostUsed ? <Badge.Ribbon key={card.key} text={t('addData.mostUsed')}>{body}</Badge.Ribbon> : body;
            })}
          </div>
        )}
      </Drawer>
      <UploadProgressStack />
    </>
  );
}
