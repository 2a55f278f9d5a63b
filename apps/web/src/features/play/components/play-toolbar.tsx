import {
  CheckSquareOutlined,
  DownloadOutlined,
  EditOutlined,
  FolderOpenOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface PlayToolbarProps {
  settingsOpen: boolean;
  onToggleSettings: () => void;
  onEdit: () => void;
  /** Disabled while generating or editing. */
  locked: boolean;
  charCount: number;
  /** The model selector (the models feature's, composed in by the route). */
  modelSelector?: ReactNode;
  publishMenu: ReactNode;
  recordButton?: ReactNode;
  exportMenu?: ReactNode;
  /** The task entry (the tasks feature's dashboard button). */
  taskButton?: ReactNode;
  /** The lore entry (the lore feature's button: entries and the context inspector). */
  loreButton?: ReactNode;
  /** A short window (spec: height 400 or less): the toolbar is not shown, but stays mounted. */
  hidden?: boolean;
  /** The story's branches (the branches feature's list button). */
  branchesButton?: ReactNode;
}

/** The play toolbar (spec section 2): controls of features not passed in (task, record, export) show disabled with "coming soon". */
export function PlayToolbar(props: PlayToolbarProps) {
  const { t } = useTranslation();
  const soon = (node: ReactNode) => <Tooltip title={t('play.comingSoon')}>{node}</Tooltip>;
  return (
    <div className="tl-play-toolbar" role="toolbar" aria-label={t('play.toolbar')} data-testid="play-toolbar" hidden={props.hidden}>
      <Button
        icon={<SettingOutlined aria-hidden="true" />}
        type={props.settingsOpen ? 'primary' : 'default'}
        aria-pressed={props.settingsOpen}
        onClick={props.onToggleSettings}
        data-testid="toolbar-settings"
      >
        <span className="tl-play-toolbar__label">{t('play.settings')}</span>
      </Button>
      {props.recordButton ??
        soon(
          <Button icon={<FolderOpenOutlined aria-hidden="true" />} disabled data-testid="toolbar-record">
            <span className="tl-play-toolbar__label">{t('play.record')}</span>
          </Button>,
        )}
      <span className="tl-play-toolbar__publish">{props.publishMenu}</span>
      {props.taskButton ??
        soon(
          <Button icon={<CheckSquareOutlined aria-hidden="true" />} disabled data-testid="toolbar-task">
            <span className="tl-play-toolbar__label">{t('play.task')}</span>
          </Button>,
        )}
      {props.loreButton}
      {props.exportMenu ??
        soon(
          <Dropdown menu={{ items: [] }} disabled>
            <Button icon={<DownloadOutlined aria-hidden="true" />} disabled data-testid="toolbar-export">
              <span className="tl-play-toolbar__label">{t('play.export')}</span>
            </Button>
          </Dropdown>,
        )}
      {props.branchesButton}
      <Button icon={<EditOutlined aria-hidden="true" />} disabled={props.locked} onClick={props.onEdit} data-testid="toolbar-edit">
        <span className="tl-play-toolbar__label">{t('play.editText')}</span>
      </Button>
      {/* The count and the model go together at the end (and together to a row of their own when
          the buttons leave them too little room). */}
      <span className="tl-play-toolbar__end">
        <span className="tl-play-toolbar__count" data-testid="char-count">
          {t('play.charCount', { count: props.charCount })}
        </span>
        {props.modelSelector}
      </span>
    </div>
  );
}
