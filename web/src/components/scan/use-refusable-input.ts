import { useRef } from 'react';
import type { FormInstance, InputRef } from 'antd';

/**
 * A scanned field the form may refuse on submit (an unknown or wrong location): the refusal shows at the field,
 * and the code stays in the box selected, so the scanner's next code replaces it instead of being typed onto it.
 */
export function useRefusableInput<V>(form: FormInstance<V>, name: string) {
  const ref = useRef<InputRef>(null);
  const refuse = (message: string) => {
    form.setFields([{ name: name as never, errors: [message] }]);
    ref.current?.focus({ cursor: 'all' });
  };
  return { ref, refuse };
}
