import { useState } from 'react';
import { Button, Form, InputNumber, Modal, Popconfirm, Select, Table } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { SUBSCRIPTION_FORMATS, type ReportFilters, type ReportFrequency, type ReportKey, type ReportSubscription } from '@bolx/contracts';
import { useCancelReportSubscriptionMutation, useGetReportSubscriptionsQuery, useSubscribeReportMutation } from '../../../lib/api/reports-api';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useT, type Translate } from '../../../lib/i18n/use-t';
import '../messages';

const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
const when = (t: Translate, s: ReportSubscription) => t('reports.subscribe.at', {
  when: s.frequency === 'daily' ? t('reports.subscribe.everyDay') : t('reports.subscribe.everyWeekday', { day: t(`reports.weekday.${s.weekday ?? 1}`) }),
  hour: String(s.hour).padStart(2, '0'), zone: s.timeZone,
});

interface Values { frequency: ReportFrequency; weekday: number; hour: number; format: (typeof SUBSCRIPTION_FORMATS)[number] }

/** Scheduled e-mails of the report on screen, with its filters: subscribe, see one's own, cancel. */
export function ReportSubscriptions({ report, filters }: { report: ReportKey; filters: ReportFilters }) {
  const t = useT();
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
      <Button icon={<MailOutlined />} onClick={() => setOpen(true)}>{t('reports.subscribe.button')}</Button>
      {mine.length > 0 && (
        <Table<ReportSubscription>
          size="small" rowKey="subscriptionId" pagination={false} className="bolx-report__subscriptions" dataSource={mine} scroll={{ x: 'max-content' }}
          columns={[
            { key: 'when', title: t('reports.subscribe.col.when'), render: (_v, s) => when(t, s) },
            { key: 'format', title: t('reports.subscribe.col.format'), render: (_v, s) => t(`reports.export.${s.format}`) },
            { key: 'to', title: t('reports.subscribe.col.to'), dataIndex: 'email' },
            { key: 'next', title: t('reports.subscribe.col.next'), render: (_v, s) => dayjs(s.nextRunAt).format('YYYY-MM-DD HH:mm') },
            { key: 'last', title: t('reports.subscribe.col.last'), render: (_v, s) => (s.lastSentAt ? dayjs(s.lastSentAt).format('YYYY-MM-DD HH:mm') : '—') },
            {
              key: 'cancel', title: '', render: (_v, s) => (
                <Popconfirm title={t('reports.subscribe.cancelConfirm')} onConfirm={() => void cancel(s.subscriptionId).unwrap().then((r) => notifySuccess(r.message), (e) => notifyError(errorToastText(toApiError(e))))}>
                  <Button size="small" danger>{t('reports.subscribe.cancel')}</Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      )}
      <Modal title={t('reports.subscribe.title')} open={open} onCancel={() => setOpen(false)} onOk={() => form.submit()} okText={t('reports.subscribe.ok')} confirmLoading={isLoading} destroyOnHidden>
        <Form<Values> form={form} layout="vertical" initialValues={{ frequency: 'daily', weekday: 1, hour: 6, format: 'xlsx' }} onFinish={(v) => void submit(v)}>
          <Form.Item name="frequency" label={t('reports.subscribe.frequency')}>
            <Select options={[{ value: 'daily', label: t('reports.subscribe.daily') }, { value: 'weekly', label: t('reports.subscribe.weekly') }]} />
          </Form.Item>
          {frequency === 'weekly' && (
            <Form.Item name="weekday" label={t('reports.subscribe.weekday')}>
              <Select options={WEEKDAYS.map((d) => ({ value: d, label: t(`reports.weekday.${d}`) }))} />
            </Form.Item>
          )}
          <Form.Item name="hour" label={t('reports.subscribe.hour')} rules={[{ required: true, message: t('reports.subscribe.hourRequired') }]}>
            <InputNumber min={0} max={23} precision={0} />
          </Form.Item>
          <Form.Item name="format" label={t('reports.subscribe.format')}>
            <Select options={SUBSCRIPTION_FORMATS.map((f) => ({ value: f, label: t(`reports.export.${f}`) }))} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
