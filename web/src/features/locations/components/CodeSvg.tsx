import { Alert, Skeleton } from 'antd';
import type { CodeSymbology } from '@bolx/contracts';
import { toApiError } from '../../../lib/api/api-error';
import { useGetCodeSvgQuery } from '../locations-api';

/** A QR code or Code 128 of the text, drawn from the server's SVG (the same encoder as the printed labels). */
export function CodeSvg({ text, symbology, className }: { text: string; symbology: CodeSymbology; className?: string }) {
  const { currentData, isFetching, error } = useGetCodeSvgQuery({ text, symbology });
  if (error && !isFetching) return <Alert type="error" showIcon message={toApiError(error).details} />;
  if (!currentData) return <Skeleton.Image active className={className} />;
  return (
    <img
      className={className}
      alt={text}
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(currentData)}`}
      data-symbology={symbology}
    />
  );
}
