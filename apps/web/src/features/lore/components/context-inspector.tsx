import { ReloadOutlined } from '@ant-design/icons';
import type { LoreFiring, PromptPart, PromptPartKind } from '@taleloom/contracts';
import { Alert, Button, Collapse, Empty, Progress, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { usePromptContext } from '../api/get-prompt-context';

const KINDS: readonly PromptPartKind[] = ['system', 'play_mode', 'prologue', 'hidden_settings', 'summary', 'lore', 'text', 'author_note', 'user_prompt', 'line'];

/**
 * What the model was sent for the pending or last turn: each part in order with its tokens, why each lore
 * entry is in, what was left out for lack of room, and the model's context window.
 */
export function ContextInspector({ storyId }: { storyId: string }) {
  const { t, i18n } = useTranslation();
  const context = usePromptContext(storyId, true);
  const number = (n: number) => n.toLocaleString(i18n.language);

  if (context.isPending) return <Skeleton active />;
  if (context.isError) return <Alert type="error" showIcon title={getErrorMessage(context.error, t)} />;
  const data = context.data;
  const refresh = (
    <Button size="small" icon={<ReloadOutlined aria-hidden="true" />} onClick={() => void context.refetch()} loading={context.isFetching} data-testid="context-refresh">
      {t('lore.context.refresh')}
    </Button>
  );
  if (!data) {
    return (
      <div className="tl-context" data-testid="context-inspector">
        <Empty description={t('lore.context.none')}>{refresh}</Empty>
      </div>
    );
  }
  const room = data.contextWindow - data.maxOutput;
  const why = (firing: LoreFiring) =>
    firing.constant
      ? t('lore.context.always')
      : t(`lore.context.firedBy.${firing.source ?? 'text'}`, { keyword: firing.keyword, title: firing.viaTitle ?? '' }) +
        (firing.secondaryKeyword ? t('lore.context.andAlso', { keyword: firing.secondaryKeyword }) : '');
  const label = (part: PromptPart) => (KINDS.includes(part.kind) ? t(`lore.context.kinds.${part.kind}`) : part.kind);

  return (
    <div className="tl-context" data-testid="context-inspector">
      <div className="tl-context__head">
        <Typography.Text>
          {t('lore.context.summary', {
            model: data.model,
            tokens: number(data.promptTokens),
            window: number(data.contextWindow),
            reply: number(data.maxOutput),
          })}
        </Typography.Text>
        {refresh}
      </div>
      <Progress percent={Math.min(100, Math.round((data.promptTokens / Math.max(1, room)) * 100))} size="small" aria-label={t('lore.context.used')} />
      <Typography.Paragraph type="secondary" className="tl-context__note">
        {t('lore.context.when', { time: new Date(data.at).toLocaleString(i18n.language) })}
        {data.summaryFolded ? ` ${t('lore.context.folded', { count: data.summaryLore.length })}` : ''}
      </Typography.Paragraph>
      {data.messages.map((message, m) => (
        <section key={m} className="tl-context__message" aria-label={t(`lore.context.roles.${message.role}`)}>
          <Typography.Title level={5} className="tl-context__role">
            {t(`lore.context.roles.${message.role}`)}
          </Typography.Title>
          <Collapse
            size="small"
            items={message.parts.map((part, p) => ({
              key: `${m}-${p}`,
              label: (
                <span className="tl-context__part" data-testid="context-part" data-kind={part.kind}>
                  <span className="tl-context__part-name">
                    {part.kind === 'lore' && part.lore ? (
                      <>
                        <Tag color="purple">{label(part)}</Tag>
                        <Typography.Text strong>{part.lore.title}</Typography.Text>{' '}
                        <Typography.Text type="secondary" data-testid="context-lore-why">
                          {why(part.lore)}
                        </Typography.Text>
                      </>
                    ) : (
                      <Tag>{label(part)}</Tag>
                    )}
                  </span>
                  <Typography.Text type="secondary" className="tl-context__tokens">
                    {t('lore.context.tokens', { count: part.tokens, n: number(part.tokens) })}
                  </Typography.Text>
                </span>
              ),
              children:
                part.kind === 'text' && part.available === false ? (
                  <Typography.Text type="secondary">{t('lore.context.textChanged')}</Typography.Text>
                ) : (
                  <pre className="tl-context__text">{part.text.replace(/^\n\n/, '')}</pre>
                ),
            }))}
          />
        </section>
      ))}
      <section className="tl-context__left-out" aria-label={t('lore.context.leftOutTitle')}>
        <Typography.Title level={5}>{t('lore.context.leftOutTitle')}</Typography.Title>
        <Typography.Paragraph type="secondary">
          {data.lore.budget === 0 && data.lore.used === 0 && data.lore.leftOut.length === 0
            ? t('lore.context.noLore')
            : t('lore.context.loreBudget', { used: number(data.lore.used), budget: number(data.lore.budget) })}
        </Typography.Paragraph>
        {data.lore.leftOut.length ? (
          <ul className="tl-context__left-list">
            {data.lore.leftOut.map((item) => (
              <li key={item.entryId} data-testid="context-left-out">
                <Typography.Text strong>{item.title}</Typography.Text> <Typography.Text type="secondary">{why(item)}</Typography.Text>{' '}
                <Tag>{t('lore.context.tokens', { count: item.tokens, n: number(item.tokens) })}</Tag>
              </li>
            ))}
          </ul>
        ) : (
          <Typography.Paragraph type="secondary">{t('lore.context.noLoreLeftOut')}</Typography.Paragraph>
        )}
        <Typography.Paragraph type="secondary" data-testid="context-text-left-out">
          {data.textLeftOutChars > 0 ? t('lore.context.textLeftOut', { count: data.textLeftOutChars, n: number(data.textLeftOutChars) }) : t('lore.context.allText')}
        </Typography.Paragraph>
      </section>
    </div>
  );
}
