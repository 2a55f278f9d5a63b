import { Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Renames the story; confirm is disabled while the title is empty. */
export function EditTitleDialog({ open, name, onClose, onSave }: { open: boolean; name: string; onClose: () => void; onSave: (name: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(name);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open) setDraft(name);
  }, [open, name]);
  const trimmed = draft.trim();
  return (
    <Modal
      open={open}
      title={t('play.editTitle')}
      onCancel={onClose}
      okText={t('play.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !trimmed || trimmed.length < 2, loading: saving, ...({ 'data-testid': 'title-confirm' } as Record<string, string>) }}
      onOk={async () => {
        setSaving(true);
        try {
          await onSave(trimmed);
          onClose();
        } finally {
          setSaving(false);
        }
      }}
    >
      <Input value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} aria-label={t('play.editTitle')} data-testid="title-input" />
    </Modal>
  );
}
