import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { chatToggled } from '../../lib/state/ui-slice';
import { useT } from '../../lib/i18n/use-t';

/** The chat loads on first open (its own chunk, with ECharts), and stays mounted so a closed chat keeps its talk. */
const ChatWidget = lazy(() => import('../../features/assistant/components/ChatWidget'));

/** Spec section 2: the chat assistant, a button at the bottom right that opens and closes its pop-up. */
export function ChatLauncher() {
  const t = useT();
  const dispatch = useAppDispatch();
  const open = useAppSelector((s) => s.ui.chatOpen);
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);
  return (
    <>
      {!open && (
        <Button type="primary" shape="circle" size="large" icon={<MessageOutlined />} className="bolx-chat-launcher"
          aria-label={t('header.chat.Chat with AI Assistant')} onClick={() => dispatch(chatToggled(true))} />
      )}
      {opened && (
        <div hidden={!open}>
          <Suspense fallback={null}><ChatWidget /></Suspense>
        </div>
      )}
    </>
  );
}
