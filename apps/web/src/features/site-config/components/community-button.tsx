import { TeamOutlined } from '@ant-design/icons';
import { Button, Image, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '../api/get-site-config';

/** The QQ group (Chinese) or Discord (English) button; hidden when the operator configured none. */
export function CommunityButton() {
  const { t, i18n } = useTranslation();
  const { data } = useSiteConfig();
  const [open, setOpen] = useState(false);
  const chinese = i18n.language === 'zh-CN';
  const qq = chinese ? data?.qqGroup : null;
  const discord = chinese ? null : data?.discordUrl;
  if (!qq && !discord) return null;
  return (
    <>
      <Button icon={<TeamOutlined aria-hidden="true" />} onClick={() => setOpen(true)} data-testid="community-button">
        {qq ? t('stories.qqGroup') : t('stories.discord')}
      </Button>
      <Modal
        open={open}
        onCancel={() => setOpen(false)}
        footer={null}
        title={qq ? t('stories.qqGroupTitle') : t('stories.discordTitle')}
        destroyOnHidden
      >
        <Space orientation="vertical" align="center" className="tl-community" data-testid="community-dialog">
          {qq?.imageUrl ? <Image src={qq.imageUrl} width={200} preview={false} alt={t('stories.qqGroupImage')} /> : null}
          {qq ? (
            <Typography.Text copyable={{ text: qq.number }} strong data-testid="community-number">
              {t('stories.qqGroupNumber', { number: qq.number })}
            </Typography.Text>
          ) : null}
          {qq?.link ? (
            <Button type="link" href={qq.link} target="_blank" rel="noopener noreferrer">
              {t('stories.qqGroupJoin')}
            </Button>
          ) : null}
          {discord ? (
            <>
              <Typography.Paragraph>{t('stories.discordBody')}</Typography.Paragraph>
              <Button type="primary" href={discord} target="_blank" rel="noopener noreferrer" data-testid="community-link">
                {t('stories.discordJoin')}
              </Button>
            </>
          ) : null}
        </Space>
      </Modal>
    </>
  );
}
