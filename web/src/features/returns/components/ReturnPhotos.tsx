import { useEffect, useState } from 'react';
import { Image, Space, Tag } from 'antd';
import type { ReturnItem } from '@bolx/contracts';
import { fetchFile } from '../../../lib/api/download';
import { useAppStore } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';

/**
 * An item's inspection photos as thumbnails; a click opens them larger (antd's preview, with arrows between an
 * item's photos). The images come through the api (bearer token, the server's client scope), so they are object
 * URLs, released when the row goes. A photo that cannot be fetched shows as its file name.
 */
/** The desk's photo route (Returns readers) and the RMA readers' (the client account's RMA view). */
export type PhotoRoute = 'Warehouse/Returns/GetItemPhoto' | 'Warehouse/RMA/GetItemPhoto';

export function ReturnPhotos({ itemId, photos, route }: { itemId: number; photos: ReturnItem['photos']; route: PhotoRoute }) {
  const t = useT();
  const store = useAppStore();
  const [urls, setUrls] = useState<Record<number, string>>({});
  const ids = photos.map((p) => p.photoId).join(',');
  useEffect(() => {
    let live = true;
    const made: string[] = [];
    void Promise.all(photos.map(async (p) => {
      try {
        const { blob } = await fetchFile(store, { url: route, params: { photoId: p.photoId } }, p.fileName);
        const url = URL.createObjectURL(blob);
        made.push(url);
        return [p.photoId, url] as const;
      } catch {
        return null;
      }
    })).then((pairs) => {
      if (live) setUrls(Object.fromEntries(pairs.filter((x) => x !== null)));
      else made.forEach((u) => URL.revokeObjectURL(u));
    });
    return () => {
      live = false;
      made.forEach((u) => URL.revokeObjectURL(u));
    };
    // The photo ids name the fetch; the array itself is new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids, route, store]);
  if (photos.length === 0) return <>—</>;
  return (
    <Image.PreviewGroup>
      <Space size={4} wrap data-testid={`photos-${itemId}`}>
        {photos.map((p) => (urls[p.photoId]
          ? <Image key={p.photoId} width={48} height={48} style={{ objectFit: 'cover', borderRadius: 4 }} src={urls[p.photoId]} alt={p.fileName}
              preview={{ mask: t('returns.desk.viewPhoto') }} data-testid={`photo-${p.photoId}`} />
          : <Tag key={p.photoId}>{p.fileName}</Tag>))}
      </Space>
    </Image.PreviewGroup>
  );
}
