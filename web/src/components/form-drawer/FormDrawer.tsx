import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Drawer, Form, Grid, Skeleton, Space, type FormInstance } from 'antd';
import { useT } from '../../lib/i18n/use-t';
import './form-drawer.css';

export interface FormDrawerProps<V extends object> {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  /** From `Form.useForm<V>()`, so the screen can read or set fields (e.g. dependent dropdowns). */
  form: FormInstance<V>;
  /** The record's values when editing; read once when the form mounts (after `loading` ends). */
  initialValues?: Partial<V>;
  /** The record is still loading: a placeholder instead of the form. */
  loading?: boolean;
  /**
   * Runs the mutation, normally `(values) => runMutation(update(values))`. The drawer closes when it resolves to
   * anything but undefined (runMutation resolves to undefined after a failure, already toasted), and stays open
   * with the user's input otherwise.
   */
  onSubmit: (values: V) => Promise<unknown>;
  submitLabel?: ReactNode;
  /** View only: fields disabled, no submit button. */
  readOnly?: boolean;
  /** Called with the form's values on every change (for dependent fields). */
  onValuesChange?: (changed: Partial<V>, all: V) => void;
  width?: number;
  /** antd Form.Items using rules from lib/form-rules. */
  children: ReactNode;
  /** Extra footer buttons (left of Cancel). */
  extraActions?: ReactNode;
  /** The footer's harmless way out (default Cancel, or Close when read-only): Close beside a destructive "Cancel …" action. */
  dismissLabel?: ReactNode;
}

/**
 * The one form pattern: an antd Form in a Drawer for create and edit. Validation by the Form.Items' rules (spec
 * section 5 texts through lib/form-rules), submit through runMutation (success toasts the server's message,
 * failure 'Error: ' + details), full width on phones.
 */
export function FormDrawer<V extends object>(props: FormDrawerProps<V>) {
  const { open, title, onClose, form, initialValues, loading, onSubmit, submitLabel, readOnly, onValuesChange, width = 640, children, extraActions, dismissLabel } = props;
  const t = useT();
  const screens = Grid.useBreakpoint();
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);

  const finish = async (values: V) => {
    // One submit at a time (a second Enter while the first is sent is dropped), without disabling the fields:
    // a disabled field loses the focus, and a scanner's next code would be typed into nothing.
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    try {
      const result = await onSubmit(values);
      if (result !== undefined) onClose();
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  return (
    <Drawer
      open={open}
      title={title}
      onClose={onClose}
      width={screens.md ? width : '100%'}
      destroyOnHidden
      maskClosable={!submitting}
      className="bolx-form-drawer"
      footer={
        <div className="bolx-form-drawer__footer">
          {/* Wraps on a phone when extra actions (a count sheet's four buttons) are wider than the screen. */}
          <Space wrap className="bolx-form-drawer__actions">
            {extraActions}
            <Button onClick={onClose} disabled={submitting}>
              {dismissLabel ?? t(readOnly ? 'form.close' : 'form.cancel')}
            </Button>
            {!readOnly && (
              <Button type="primary" loading={submitting} disabled={loading} onClick={() => form.submit()}>
                {submitLabel ?? t('form.save')}
              </Button>
            )}
          </Space>
        </div>
      }
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Form<V>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onFinish={finish}
          onValuesChange={onValuesChange}
          disabled={readOnly}
          scrollToFirstError
          preserve={false}
        >
          <FreshStore form={form}>{children}</FreshStore>
          {/* Enter in a field submits, like any form. */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Form>
      )}
    </Drawer>
  );
}

/**
 * The screen's form instance outlives each opening, and antd merges a remounted form's initialValues under what the
 * store still holds from the last opening; so the store is reset to this opening's values first, and only then do
 * the fields mount. Resetting after they mounted would remount a Form.List's rows, and with preserve={false} each
 * row taken down erases its values: an RO opened for editing showed every line blank.
 */
function FreshStore({ form, children }: { form: FormInstance; children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    form.resetFields();
    setReady(true);
  }, [form]);
  return ready ? <>{children}</> : null;
}

/** Which record a FormDrawer shows: none (closed), a new one, or an existing one. */
export type DrawerTarget<R> = { mode: 'create' } | { mode: 'edit'; record: R } | null;

/**
 * Open/close state for a screen's FormDrawer. The target is kept while the drawer slides out, so an edit drawer
 * does not turn into an add drawer during its closing animation.
 */
export function useFormDrawer<R>() {
  const [state, setState] = useState<{ open: boolean; target: DrawerTarget<R> }>({ open: false, target: null });
  const { open, target } = state;
  return {
    target: open ? target : null,
    open,
    editing: target?.mode === 'edit' ? target.record : undefined,
    openCreate: () => setState({ open: true, target: { mode: 'create' } }),
    openEdit: (record: R) => setState({ open: true, target: { mode: 'edit', record } }),
    close: () => setState((s) => ({ ...s, open: false })),
  };
}
