import { useState } from 'react';
import { Alert, Modal, Select, Typography } from 'antd';
import type { PickJobSummary } from '@bolx/contracts';
import { useAssignPickJobMutation, useGetFloorUsersQuery } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';

/** Assign a job to one of the warehouse's active staff users (never a client account). */
export function AssignJobModal({ job, onClose }: { job: PickJobSummary; onClose: () => void }) {
  const t = useT();
  const { data, isFetching, isError } = useGetFloorUsersQuery(job.warehouseId);
  const [userId, setUserId] = useState<number | undefined>(job.assignedTo ?? undefined);
  const [assign, { isLoading }] = useAssignPickJobMutation();
  const staff = (data?.items ?? []).filter((u) => u.role !== 'Client');
  const ok = async () => {
    if (!userId) return;
    if (await runMutation(assign({ jobId: job.jobId, userId }))) onClose();
  };
  return (
    <Modal open title={t('floor.assignTitle', { job: job.jobNumber })} okText={t('floor.assign')} onOk={() => void ok()} onCancel={onClose}
      okButtonProps={{ disabled: !userId || userId === job.assignedTo, loading: isLoading }}>
      {isError ? <Alert type="warning" showIcon message={t('floor.usersUnavailable')} /> : (
        <>
          <Typography.Paragraph type="secondary">{t('floor.assignHelp')}</Typography.Paragraph>
          <Select
            style={{ width: '100%' }}
            showSearch
            optionFilterProp="label"
            loading={isFetching}
            value={userId}
            onChange={setUserId}
            placeholder={t('floor.choosePicker')}
            data-testid="assign-user"
            options={staff.map((u) => ({ value: u.userId, label: `${[u.firstName, u.lastName].filter(Boolean).join(' ') || u.username} (${u.username})` }))}
          />
        </>
      )}
    </Modal>
  );
}
