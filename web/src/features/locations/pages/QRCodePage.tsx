import { useState } from 'react';
import { Alert, Button, Card, Col, Empty, Form, Input, Radio, Row, Space, Typography } from 'antd';
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { CODE_SYMBOLOGIES, MAX_QR_TEXT, type CodeSymbology } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { useT } from '../../../lib/i18n/use-t';
import { CodeSvg } from '../components/CodeSvg';
import { PageHeading } from '../components/PageHeading';
import { locationFiles } from '../locations-api';
import { useDebounced } from '../../../lib/use-debounced';
import '../locations.css';

/** Code 128 holds printable ASCII; anything else would scan back as something else (the server refuses it too). */
const CODE128_TEXT = /^[\x20-\x7E]+$/;

/** Prints just the symbol and its text, through a hidden frame (no pop-up to be blocked). */
function printSymbol(svgImage: HTMLImageElement | null, caption: string) {
  if (!svgImage) return;
  const frame = document.createElement('iframe');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  document.body.appendChild(frame);
  const doc = frame.contentDocument!;
  doc.open();
  doc.write('<!doctype html><title>BOLX-WMS</title><body style="margin:0;display:flex;flex-direction:column;align-items:center;justify-content:center;height:100vh;font:14px sans-serif"></body>');
  doc.close();
  const img = doc.createElement('img');
  img.src = svgImage.src;
  img.style.maxWidth = '90vw';
  img.style.maxHeight = '70vh';
  const text = doc.createElement('div');
  text.textContent = caption;
  text.style.marginTop = '12px';
  text.style.wordBreak = 'break-all';
  doc.body.append(img, text);
  img.onload = () => {
    frame.contentWindow?.print();
    setTimeout(() => frame.remove(), 1000);
  };
}

/** /QRCode: a QR code or Code 128 of any typed text, to look at, download as PNG or print. */
export default function QRCodePage() {
  const t = useT();
  const [text, setText] = useState('');
  const [symbology, setSymbology] = useState<CodeSymbology>('qr');
  const [download, downloading] = useDownload();
  const shown = useDebounced(text.trim());
  const invalid = symbology === 'code128' && shown !== '' && !CODE128_TEXT.test(shown);
  const ready = shown !== '' && !invalid;

  return (
    <div className="bolx-page">
      <PageHeading title={t('routes.QRCode')} subtitle={t('locations.qr.subtitle')} />
      <Row gutter={[20, 20]}>
        <Col xs={24} lg={12}>
          <Card>
            <Form layout="vertical">
              <Form.Item label={t('locations.qr.symbology')}>
                <Radio.Group
                  optionType="button"
                  buttonStyle="solid"
                  value={symbology}
                  onChange={(e) => setSymbology(e.target.value as CodeSymbology)}
                  options={CODE_SYMBOLOGIES.map((s) => ({ value: s, label: t(`locations.qr.symbologies.${s}`) }))}
                />
              </Form.Item>
              <Form.Item
                label={t('locations.qr.text')}
                validateStatus={invalid ? 'error' : undefined}
                help={invalid ? t('locations.qr.asciiOnly') : t('locations.qr.textHint', { max: MAX_QR_TEXT })}
              >
                <Input.TextArea
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  maxLength={MAX_QR_TEXT}
                  showCount
                  autoSize={{ minRows: 3, maxRows: 8 }}
                  placeholder={t('locations.qr.placeholder')}
                  aria-label={t('locations.qr.text')}
                />
              </Form.Item>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card
            title={t('locations.qr.preview')}
            extra={
              <Space>
                <Button
                  icon={<DownloadOutlined />}
                  disabled={!ready}
                  loading={downloading}
                  onClick={() => download(locationFiles.codeImage({ text: shown, symbology }), symbology === 'qr' ? 'qr-code.png' : 'code128.png')}
                >
                  {t('locations.qr.download')}
                </Button>
                <Button
                  icon={<PrinterOutlined />}
                  disabled={!ready}
                  onClick={() => printSymbol(document.querySelector<HTMLImageElement>('.bolx-qr__image'), shown)}
                >
                  {t('locations.qr.print')}
                </Button>
              </Space>
            }
          >
            <div className="bolx-qr" data-testid="qr-preview">
              {ready ? (
                <>
                  <CodeSvg text={shown} symbology={symbology} className={`bolx-qr__image bolx-qr__image--${symbology}`} />
                  <Typography.Paragraph className="bolx-qr__caption" ellipsis={{ rows: 2 }}>
                    {shown}
                  </Typography.Paragraph>
                </>
              ) : invalid ? (
                <Alert type="warning" showIcon message={t('locations.qr.asciiOnly')} />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('locations.qr.empty')} />
              )}
            </div>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
