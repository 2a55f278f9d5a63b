import { CloseOutlined, FileTextOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { UPLOAD_EXTENSIONS, type LoreBookInput, type UploadParseData } from '@taleloom/contracts';
import { Button, Modal, Space, Tag, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { checkUpload, uploadParse } from '../../../lib/upload-parse';
import './files.css';
import { useFeedback } from '../../../components/feedback';

/** Upload item states (spec section 4). */
export type UploadItemState = 'pending' | 'uploading' | 'finished' | 'error' | 'removed';

interface UploadItem {
  uid: string;
  file: File;
  state: UploadItemState;
  error?: unknown;
  result?: UploadParseData;
}

interface Choice {
  uid: string;
  result: UploadParseData;
}

export interface ManuscriptUploadProps {
  /** The current text of the prologue field. */
  getText: () => string;
  /** Puts text into the prologue field. */
  setText: (text: string) => void;
  /** Hands on the lore the file carries (created with the story). */
  setLore?: (lore: LoreBookInput | null, mode: 'replace' | 'append') => void;
  /** Offers a story name the file carries (a character card's name). */
  setName?: (name: string) => void;
}

const STATE_COLORS: Record<UploadItemState, string> = {
  pending: 'default',
  uploading: 'processing',
  finished: 'success',
  error: 'error',
  removed: 'default',
};

/**
 * The create screen's file import: each file is an item (pending, uploading, finished, error with retry,
 * removed). Text already in the field is never overwritten without asking: a plain file asks to replace,
 * a PNG character card asks to append or replace.
 */
export function ManuscriptUpload({ getText, setText, setLore, setName }: ManuscriptUploadProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [choice, setChoice] = useState<Choice | null>(null);
  const counter = useRef(0);

  const patch = (uid: string, change: Partial<UploadItem>) =>
    setItems((list) => list.map((item) => (item.uid === uid ? { ...item, ...change } : item)));

  const apply = (uid: string, result: UploadParseData, mode: 'replace' | 'append') => {
    const current = getText();
    setText(mode === 'append' && current.trim() ? `${current.replace(/\s+$/, '')}\n\n${result.content}` : result.content);
    setLore?.(result.lore ?? null, mode);
    // A card names the story after its character (used when the name is still empty).
    if (result.card?.name) setName?.(result.card.name);
    // Only one file is the source of the text at a time: earlier imports are marked removed.
    setItems((list) =>
      list.map((item) =>
        item.uid === uid ? { ...item, state: 'finished' } : item.state === 'finished' && mode === 'replace' ? { ...item, state: 'removed' } : item,
      ),
    );
    void message.success(t('files.upload.imported', { name: result.fileName, count: result.characters }));
  };

  const run = async (uid: string, file: File) => {
    const refused = checkUpload(file);
    if (refused) return patch(uid, { state: 'error', error: refused });
    patch(uid, { state: 'uploading', error: undefined });
    try {
      const result = await uploadParse(file);
      patch(uid, { result });
      // A lore book has no text: its entries join the story's lore and the field stays as it is.
      if (!result.content.trim() && result.lore) {
        setLore?.(result.lore, 'append');
        patch(uid, { state: 'finished' });
        void message.success(t('files.upload.loreImported', { count: result.lore.entries.length, name: result.fileName }));
      } else if (!getText().trim()) apply(uid, result, 'replace');
      else setChoice({ uid, result });
    } catch (error) {
      patch(uid, { state: 'error', error });
    }
  };

  const add = (file: File) => {
    counter.current += 1;
    const uid = `upload-${counter.current}`;
    setItems((list) => [...list, { uid, file, state: 'pending' }]);
    void run(uid, file);
  };

  const decide = (mode: 'replace' | 'append' | 'cancel') => {
    if (!choice) return;
    if (mode === 'cancel') patch(choice.uid, { state: 'removed' });
    else apply(choice.uid, choice.result, mode);
    setChoice(null);
  };

  const visible = items.filter((item) => item.state !== 'removed');
  const previous = items.find((item) => item.state === 'finished');
  const isCard = choice?.result.kind === 'character_card';

  return (
    <div className="tl-upload" data-testid="manuscript-upload">
      <Upload
        accept={UPLOAD_EXTENSIONS.join(',')}
        multiple={false}
        showUploadList={false}
        beforeUpload={(file) => {
          add(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined aria-hidden="true" />} data-testid="create-upload">
          {t('files.upload.button')}
        </Button>
      </Upload>
      {visible.length > 0 ? (
        <ul className="tl-upload__list" aria-label={t('files.upload.listLabel')}>
          {visible.map((item) => (
            <li key={item.uid} className={`tl-upload__item tl-upload__item--${item.state}`} data-testid="upload-item" data-state={item.state}>
              <FileTextOutlined aria-hidden="true" className="tl-upload__icon" />
              <div className="tl-upload__body">
                <Typography.Text ellipsis className="tl-upload__name">
                  {item.file.name}
                </Typography.Text>
                <Space size={4} wrap>
                  <Tag color={STATE_COLORS[item.state]} className="tl-upload__state">
                    {t(`files.upload.state.${item.state}`)}
                  </Tag>
                  {item.result?.card ? <Tag>{t('files.upload.card', { spec: item.result.card.spec.toUpperCase() })}</Tag> : null}
                  {item.result?.lore?.entries.length ? <Tag color="purple">{t('files.upload.lore', { count: item.result.lore.entries.length })}</Tag> : null}
                  {item.state === 'error' ? (
                    <Typography.Text type="danger" className="tl-upload__error" data-testid="upload-error">
                      {getErrorMessage(item.error, t)}
                    </Typography.Text>
                  ) : null}
                </Space>
              </div>
              {item.state === 'error' ? (
                <Button size="small" icon={<ReloadOutlined aria-hidden="true" />} onClick={() => void run(item.uid, item.file)} data-testid="upload-retry">
                  {t('files.upload.retry')}
                </Button>
              ) : null}
              {item.state !== 'uploading' ? (
                <Button
                  size="small"
                  type="text"
                  icon={<CloseOutlined aria-hidden="true" />}
                  aria-label={t('files.upload.remove', { name: item.file.name })}
                  onClick={() => patch(item.uid, { state: 'removed' })}
                  data-testid="upload-remove"
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <Modal
        open={choice !== null}
        title={isCard ? t('files.upload.cardTitle', { name: choice?.result.card?.name ?? '' }) : t('files.upload.replaceTitle')}
        onCancel={() => decide('cancel')}
        data-testid="upload-choice"
        footer={[
          <Button key="cancel" onClick={() => decide('cancel')}>
            {t('common.cancel')}
          </Button>,
          <Button key="replace" danger={!isCard} type={isCard ? 'default' : 'primary'} onClick={() => decide('replace')} data-testid="upload-replace">
            {t('files.upload.replace')}
          </Button>,
          ...(isCard
            ? [
                <Button key="append" type="primary" onClick={() => decide('append')} data-testid="upload-append">
                  {t('files.upload.append')}
                </Button>,
              ]
            : []),
        ]}
      >
        <Typography.Paragraph>
          {isCard
            ? t('files.upload.cardBody')
            : t('files.upload.replaceBody', { name: choice?.result.fileName ?? '', previous: previous?.file.name ?? t('create.prologue') })}
        </Typography.Paragraph>
      </Modal>
    </div>
  );
}
