import { ToastContainer } from 'react-toastify';

/** Spec section 9: top-right, auto-close 5000 ms, coloured theme, 320px wide (global.css), 300 ms collapse. */
export default function ToastHost() {
  return <ToastContainer position="top-right" autoClose={5000} theme="colored" newestOnTop closeOnClick pauseOnHover />;
}
