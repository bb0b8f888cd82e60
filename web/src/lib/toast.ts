import { toast } from 'react-toastify';

/**
 * Toasts (spec section 8 and 9). Calls made before the container has mounted are queued by react-toastify and
 * shown when it mounts (see app/ToastHost.tsx).
 */
export const notifySuccess = (message: string) => toast.success(message);
export const notifyError = (message: string) => toast.error(message);
export const notifyInfo = (message: string) => toast.info(message);
