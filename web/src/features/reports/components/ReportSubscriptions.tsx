import { useState } from 'react';
import { Button, Form, InputNumber, Modal, Popconfirm, Select, Table } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { SUBSCRIPTION_FORMATS, type ReportFilters, type ReportFrequency, type ReportKey, type ReportSubscription } from '@bolx/contracts';
import { useCancelReportSubscriptionMutation, useGetReportSubscriptionsQuery, useSubscribeReportMutation } from '../../../lib/api/reports-api';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { notifyError, notifySuccess } from '../../../lib/toast';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const FORMAT_LABELS: Record<(typeof SUBSCRIPTION_FORMATS)[number], string> = { xlsx: 'Excel', pdf: 'PDF' };
const when = (s: ReportSubscription) => `${s.frequency === 'daily' ? 'Every day' : `Every ${WEEKDAYS[s.weekday ?? 1]}`} at ${String(s.hour).padStart(2, '0')}:00 (${s.timeZone})`;

interface Values { frequency: ReportFrequency; weekday: number; hour: number; format: (typeof SUBSCRIPTION_FORMATS)[number] }

/** Scheduled e-mails of the report on screen, with its filters: subscribe, see one's own, cancel. */
export function ReportSubscriptions({ report, filters }: { report: ReportKey; filters: ReportFilters }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const frequency = Form.useWatch('frequency', form);
  const { data = [] } = useGetReportSubscriptionsQuery();
  const [subscribe, { isLoading }] = useSubscribeReportMutation();
  const [cancel] = useCancelReportSubscriptionMutation();
  const mine = data.filter((s) => s.report === report);

  const submit = async (v: Values) => {
    try {
      const r = await subscribe({ report, filters, format: v.format, frequency: v.frequency, hour: v.hour, ...(v.frequency === 'weekly' ? { weekday: v.weekday } : {}) }).unwrap();
      notifySuccess(r.message);
      setOpen(false);
    } catch (e) {
      notifyError(errorToastText(toApiError(e)));
    }
  };

  return (
    <>
      <Button icon={<MailOutlined />} onClick={() => setOpen(true)}>E-mail this report</Button>
      {mine.length > 0 && (
        <Table<ReportSubscription>
          size="small" rowKey="subscriptionId" pagination={false} className="bolx-report__subscriptions" dataSource={mine} scroll={{ x: 'max-content' }}
          columns={[
            { key: 'when', title: 'Scheduled e-mail', render: (_v, s) => when(s) },
            { key: 'format', title: 'Format', render: (_v, s) => FORMAT_LABELS[s.format] },
            { key: 'to', title: 'To', dataIndex: 'email' },
            { key: 'next', title: 'Next', render: (_v, s) => dayjs(s.nextRunAt).format('YYYY-MM-DD HH:mm') },
            { key: 'last', title: 'Last sent', render: (_v, s) => (s.lastSentAt ? dayjs(s.lastSentAt).format('YYYY-MM-DD HH:mm') : '—') },
            {
              key: 'cancel', title: '', render: (_v, s) => (
                <Popconfirm title="Stop e-mailing this report?" onConfirm={() => void cancel(s.subscriptionId).unwrap().then((r) => notifySuccess(r.message), (e) => notifyError(errorToastText(toApiError(e))))}>
                  <Button size="small" danger>Cancel</Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      )}
      <Modal title="E-mail this report" open={open} onCancel={() => setOpen(false)} onOk={() => form.submit()} okText="Subscribe" confirmLoading={isLoading} destroyOnHidden>
        <Form<Values> form={form} layout="vertical" initialValues={{ frequency: 'daily', weekday: 1, hour: 6, format: 'xlsx' }} onFinish={(v) => void submit(v)}>
          <Form.Item name="frequency" label="How often">
            <Select options={[{ value: 'daily', label: 'Daily' }, { value: 'weekly', label: 'Weekly' }]} />
          </Form.Item>
          {frequency === 'weekly' && (
            <Form.Item name="weekday" label="On">
              <Select options={WEEKDAYS.map((d, i) => ({ value: i, label: d }))} />
            </Form.Item>
          )}
          <Form.Item name="hour" label="At hour (the warehouse's time; UTC for all warehouses)" rules={[{ required: true, message: 'Choose an hour from 0 to 23' }]}>
            <InputNumber min={0} max={23} precision={0} />
          </Form.Item>
          <Form.Item name="format" label="Attached as">
            <Select options={SUBSCRIPTION_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
