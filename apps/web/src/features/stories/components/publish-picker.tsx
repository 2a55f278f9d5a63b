import type { StoryListItem } from '@taleloom/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Modal, Spin, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../../lib/error-message';
import { useStories } from '../api/get-stories';
import { publishStory, visibilityChanged } from '../api/publish-story';
import { formatStoryTitle } from '../utils/story-format';
import './stories.css';
import { useFeedback } from '../../../components/feedback';

// Enough of my newest stories to choose from in a dialog.
const PICK_PAGE_SIZE = 50;

/**
 * The power dialog's publish button (spec, "Power dialog"): pick one of my stories that is not public
 * yet, then the same confirmation as the play screen's publish. With none, it leads to creating one.
 */
export function PublishPicker() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="power-publish">
        {t('power.dialog.publish')}
      </Button>
      {open ? <PickDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function PickDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = useFeedback();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const stories = useStories({ square: false, pageSize: PICK_PAGE_SIZE, search: '' });
  const [publishing, setPublishing] = useState<string | null>(null);
  const privateOnes = (stories.data?.pages ?? []).flatMap((p) => p.list).filter((s) => s.permission !== '1');

  // The play screen's confirmation, word for word.
  const confirm = (story: StoryListItem) =>
    modal.confirm({
      title: t('publish.publishConfirmTitle'),
      content: t('publish.publishConfirmBody'),
      okText: t('publish.publish'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'publish-pick-confirm' } as ButtonProps,
      onOk: async () => {
        setPublishing(story.id);
        try {
          await visibilityChanged(queryClient, story.id, await publishStory(story.id));
          void message.success(t('publish.publishDone'));
          onClose();
        } catch (error) {
          void message.error(getErrorMessage(error, t));
        } finally {
          setPublishing(null);
        }
      },
    });

  return (
    <Modal open onCancel={onClose} footer={null} title={t('power.dialog.publishPickTitle')} centered destroyOnHidden>
      <div data-testid="publish-pick">
        {stories.isPending ? (
          <Spin />
        ) : privateOnes.length === 0 ? (
          <Empty description={t('power.dialog.publishNone')}>
            <Button type="primary" onClick={() => navigate('/create')} data-testid="publish-pick-create">
              {t('stories.newStory')}
            </Button>
          </Empty>
        ) : (
          <ul className="tl-publish-pick">
            {privateOnes.map((story) => (
              <li key={story.id} className="tl-publish-pick__item">
                <span className="tl-publish-pick__text">
                  <Typography.Text strong>{formatStoryTitle(story, t('stories.untitled'))}</Typography.Text>
                  <Typography.Text type="secondary" ellipsis>
                    {story['last-line']}
                  </Typography.Text>
                </span>
                <Button type="primary" size="small" loading={publishing === story.id} onClick={() => confirm(story)} data-testid="publish-pick-item">
                  {t('publish.publish')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
