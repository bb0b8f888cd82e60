import { Form, Modal } from 'antd';
import type { RmaSummary } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { formFieldErrors } from '../../../lib/api/api-error';
import { shippingFiles, useGetCarrierAccountsQuery } from '../../../lib/api/shipping-api';
import { useT } from '../../../lib/i18n/use-t';
import { useCreateReturnLabelMutation } from '../returns-api';
import { CarrierFields, carrierInput, type CarrierValues } from './CarrierFields';
import { useKeyedAction } from '../../../lib/action-key';

/** An RMA's return label (consumer → warehouse) through the client's carrier account or a tracking number typed in; printed at once. */
export function ReturnLabelModal({ rma, onClose }: { rma: RmaSummary; onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<CarrierValues>();
  const accounts = useGetCarrierAccountsQuery(rma.customerId);
  const [create, creating] = useCreateReturnLabelMutation();
  const act = useKeyedAction();
  const [download] = useDownload();
  const submit = async (values: CarrierValues) => {
    const done = await act('return-label', { rmaId: rma.rmaId, ...carrierInput(values) }, create, {
      onError: (error) => form.setFields(formFieldErrors(error) as never),
    });
    if (!done) return;
    onClose();
    await download(shippingFiles.labels([done.data.shipmentId]), `${done.data.shipmentNumber}.pdf`);
  };
  return (
    <Modal open title={t('returns.rma.returnLabelTitle', { rma: rma.rmaNumber })} okText={t('returns.rma.makeLabel')} onOk={() => form.submit()} onCancel={onClose}
      confirmLoading={creating.isLoading} width={720} destroyOnClose>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} initialValues={{ packages: [{ weightKg: 1, lengthCm: 30, widthCm: 20, heightCm: 10 }] }}>
        <CarrierFields accounts={accounts.data ?? []} />
      </Form>
    </Modal>
  );
}
