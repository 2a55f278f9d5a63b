import type { PointsRecord, PointsRecordType } from '@taleloom/contracts';
import { POINTS_PAGE_SIZE } from '@taleloom/contracts';
import { Alert, Modal, Table, Tabs, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useUserPointsQuery } from '../api/get-user-points';
import { channelText, formatPoints } from '../lib/channel-text';
import './power.css';
import { formatDateTime } from '../../../lib/intl-format';

interface PowerDetailsDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Power details (spec section 2): income and expense tabs, each a paged table of channel, power and time. */
export function PowerDetailsDialog({ open, onClose }: PowerDetailsDialogProps) {
  const { t } = useTranslation();
  const [type, setType] = useState<PointsRecordType>('income');

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={900}
      title={t('power.details.title')}
      destroyOnHidden
      centered
    >
      <div data-testid="power-details-dialog">
      <Tabs
        activeKey={type}
        onChange={(key) => setType(key as PointsRecordType)}
        items={(['income', 'expense'] as const).map((key) => ({
          key,
          label: <span data-testid={`power-details-tab-${key}`}>{t(`power.details.${key}`)}</span>,
          children: <PointsTable type={key} enabled={open && type === key} />,
        }))}
      />
      </div>
    </Modal>
  );
}

function PointsTable({ type, enabled }: { type: PointsRecordType; enabled: boolean }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useUserPointsQuery({ type, page }, enabled);

  const columns: TableColumnsType<PointsRecord> = [
    { key: 'channel', title: t('power.details.channel'), render: (_, record) => channelText(record, t) },
    {
      key: 'points',
      title: t('power.details.power'),
      dataIndex: 'points',
      align: 'right',
      render: (points: number) => (
        <span className={points > 0 ? 'tl-power-plus' : points < 0 ? 'tl-power-minus' : undefined} data-testid="power-amount">
          {formatPoints(points, i18n.language)}
        </span>
      ),
    },
    {
      key: 'time',
      title: t('power.details.time'),
      dataIndex: 'operationAt',
      render: (at: string) => formatDateTime(new Date(at), i18n.language),
    },
  ];

  return (
    <>
      {query.error && <Alert type="error" showIcon title={getErrorMessage(query.error, t)} className="tl-power-alert" />}
      <Table<PointsRecord>
        data-testid={`power-details-table-${type}`}
        size="middle"
        columns={columns}
        dataSource={(query.data?.records ?? []).map((record, index) => ({ ...record, key: `${page}-${index}` }))}
        loading={query.isFetching}
        locale={{ emptyText: t('power.details.empty') }}
        pagination={{
          current: page,
          pageSize: POINTS_PAGE_SIZE,
          total: query.data?.pagination.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
      />
    </>
  );
}
