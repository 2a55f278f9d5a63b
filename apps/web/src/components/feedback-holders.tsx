import { message, Modal } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import { useEffect } from 'react';

/** antd's message and modal holders (feedback.tsx mounts them lazily); hands their APIs over once mounted. */
export function FeedbackHolders({ onReady }: { onReady: (apis: { message: MessageInstance; modal: ModalHookAPI }) => void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => onReady({ message: messageApi, modal: modalApi }), [onReady, messageApi, modalApi]);
  return (
    <>
      {modalHolder}
      {messageHolder}
    </>
  );
}
