import { DownOutlined, GlobalOutlined } from '@ant-design/icons';
import type { StoryData } from '@taleloom/contracts';
import { Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { usePublishStory } from '../api/publish-story';
import { useUnpublishStory } from '../api/unpublish-story';
import { ShareDialog } from './share-dialog';
import { useFeedback } from '../../../components/feedback';

/**
 * The play toolbar's publish control (spec section 4 "Story permission"): a private story is
 * published after a confirmation; a public one offers update, private (both confirmed) and share.
 */
export function PublishMenu({ story }: { story: StoryData }) {
  const { t } = useTranslation();
  const { modal, message } = useFeedback();
  const publish = usePublishStory(story.id);
  const unpublish = useUnpublishStory(story.id);
  const [sharing, setSharing] = useState(false);
  const busy = publish.isPending || unpublish.isPending;

  const confirm = (kind: 'publish' | 'update' | 'private') =>
    modal.confirm({
      title: t(`publish.${kind}ConfirmTitle`),
      content: t(`publish.${kind}ConfirmBody`),
      okText: t(`publish.${kind}`),
      cancelText: t('common.cancel'),
      onOk: () =>
        (kind === 'private' ? unpublish : publish).mutateAsync().then(
          () => void message.success(t(`publish.${kind}Done`)),
          (error: unknown) => void message.error(getErrorMessage(error, t)),
        ),
    });

  if (story.permission !== '1') {
    return (
      <Button icon={<GlobalOutlined aria-hidden="true" />} loading={busy} onClick={() => confirm('publish')} data-testid="publish-button">
        {t('publish.publish')}
      </Button>
    );
  }
  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'update', label: <span data-testid="publish-update">{t('publish.update')}</span> },
            { key: 'private', label: <span data-testid="publish-private">{t('publish.private')}</span> },
            { key: 'share', label: <span data-testid="publish-share">{t('publish.share')}</span> },
          ],
          onClick: ({ key }) => (key === 'share' ? setSharing(true) : confirm(key as 'update' | 'private')),
        }}
      >
        <Button type="primary" loading={busy} data-testid="publish-menu">
          {t('publish.public')} <DownOutlined aria-hidden="true" />
        </Button>
      </Dropdown>
      <ShareDialog storyId={story.id} open={sharing} onClose={() => setSharing(false)} />
    </>
  );
}
