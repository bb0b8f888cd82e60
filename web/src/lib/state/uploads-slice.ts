import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The type codes a progress circle shows (spec section 2, Add Data panel). */
export const UPLOAD_KINDS = ['ORD', 'RO', 'SKU', 'INV', 'LOC', 'PLT'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Sending the bytes, then waiting for the server's answer, then its outcome. */
export type UploadPhase = 'uploading' | 'processing' | 'done' | 'failed';

export interface UploadRowProblem {
  row: number;
  column: string;
  message: string;
}

/**
 * One floating progress card. The spec's upload progress item is {title, total, completed, visible}; here
 * `completed` and `total` are real bytes sent (XMLHttpRequest upload progress), not a timer.
 */
export interface UploadItem {
  id: string;
  kind: UploadKind;
  title: string;
  total: number;
  completed: number;
  phase: UploadPhase;
  /** false: hidden (collapsed to its title bar). */
  visible: boolean;
  /** Shrunk to a circle with the percent and the type code. */
  circle: boolean;
  /** The server's success or error text. */
  message: string | null;
  rowErrors: UploadRowProblem[];
  notes: string[];
}

export interface UploadsState {
  items: UploadItem[];
}

export const initialUploadsState: UploadsState = { items: [] };

/** Whole percent of bytes sent; a finished upload is 100 whatever its size. */
export function percentOf(item: Pick<UploadItem, 'completed' | 'total' | 'phase'>): number {
  if (item.phase === 'done' || item.phase === 'processing') return 100;
  if (item.total <= 0) return 0;
  return Math.min(100, Math.floor((item.completed / item.total) * 100));
}

/** Still running: the card of its kind shows "Uploading...". */
export const isRunning = (item: Pick<UploadItem, 'phase'>) => item.phase === 'uploading' || item.phase === 'processing';

const find = (state: UploadsState, id: string) => state.items.find((i) => i.id === id);

const uploadsSlice = createSlice({
  name: 'uploads',
  initialState: initialUploadsState,
  reducers: {
    uploadStarted(state, { payload }: PayloadAction<{ id: string; kind: UploadKind; title: string; total: number }>) {
      state.items.push({ ...payload, completed: 0, phase: 'uploading', visible: true, circle: false, message: null, rowErrors: [], notes: [] });
    },
    uploadProgressed(state, { payload }: PayloadAction<{ id: string; completed: number; total?: number }>) {
      const item = find(state, payload.id);
      if (!item || item.phase !== 'uploading') return;
      if (payload.total && payload.total > 0) item.total = payload.total;
      // Never backwards: a retry after a token refresh starts its own count from 0.
      item.completed = Math.max(item.completed, Math.min(payload.completed, item.total));
    },
    /** Every byte is sent; the server is reading the file. */
    uploadSent(state, { payload }: PayloadAction<string>) {
      const item = find(state, payload);
      if (item?.phase === 'uploading') {
        item.phase = 'processing';
        item.completed = item.total;
      }
    },
    uploadSucceeded(state, { payload }: PayloadAction<{ id: string; message: string }>) {
      const item = find(state, payload.id);
      if (!item) return;
      item.phase = 'done';
      item.completed = item.total;
      item.message = payload.message;
    },
    uploadFailed(state, { payload }: PayloadAction<{ id: string; message: string; rowErrors?: UploadRowProblem[]; notes?: string[] }>) {
      const item = find(state, payload.id);
      if (!item) return;
      item.phase = 'failed';
      item.message = payload.message;
      item.rowErrors = payload.rowErrors ?? [];
      item.notes = payload.notes ?? [];
      // A failure must be read: it comes back into view even if it was hidden or shrunk.
      item.visible = true;
      item.circle = false;
    },
    uploadVisibilityToggled(state, { payload }: PayloadAction<string>) {
      const item = find(state, payload);
      if (item) item.visible = !item.visible;
    },
    uploadShrunk(state, { payload }: PayloadAction<{ id: string; circle: boolean }>) {
      const item = find(state, payload.id);
      if (item) item.circle = payload.circle;
    },
    /** Stopped (its request is aborted by the caller) or dismissed. */
    uploadRemoved(state, { payload }: PayloadAction<string>) {
      state.items = state.items.filter((i) => i.id !== payload);
    },
  },
});

export const {
  uploadStarted, uploadProgressed, uploadSent, uploadSucceeded, uploadFailed, uploadVisibilityToggled, uploadShrunk, uploadRemoved,
} = uploadsSlice.actions;
export const uploadsReducer = uploadsSlice.reducer;

/** The kinds with an upload still running (their cards show the "Uploading..." badge). */
export function runningKinds(state: UploadsState): UploadKind[] {
  return [...new Set(state.items.filter(isRunning).map((i) => i.kind))];
}
