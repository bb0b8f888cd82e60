import type { ReactNode } from 'react';
import { Collapse, Radio, Typography } from 'antd';
import type { AssignableModule, ModuleWarehouseUsersResponse } from '@bolx/contracts';
import { useT } from '../../../lib/i18n/use-t';
import { groupPermission, setGrants, type GrantMap, type Permission } from '../user-form-model';

type Choice = Permission | 'none';
const toChoice = (p: Permission | 'mixed' | undefined): Choice | undefined => (p === 'mixed' ? undefined : (p ?? 'none'));

/** The form control of a user's modules: per app, each module None / Read / Write; a group sets all its modules. */
export function ModuleGrantsInput({ apps, value = {}, onChange, disabled }: {
  apps: ModuleWarehouseUsersResponse['modules'];
  value?: GrantMap;
  onChange?: (value: GrantMap) => void;
  disabled?: boolean;
}) {
  const t = useT();
  const choices = (ariaLabel: string, current: Choice | undefined, set: (c: Choice) => void) => (
    <span role="radiogroup" aria-label={ariaLabel}>
      <Radio.Group
        size="small"
        optionType="button"
        disabled={disabled}
        value={current}
        onChange={(e) => set(e.target.value as Choice)}
        options={[
          { value: 'none', label: t('user.modules.none') },
          { value: 'read', label: t('user.modules.read') },
          { value: 'write', label: t('user.modules.write') },
        ]}
      />
    </span>
  );
  const apply = (modules: AssignableModule[], c: Choice) => onChange?.(setGrants(value, modules, c === 'none' ? undefined : c));

  const row = (m: AssignableModule, depth: number): ReactNode => (
    <div key={m.moduleId}>
      <div className="bolx-grants__row" style={{ paddingInlineStart: depth * 20 }}>
        <Typography.Text strong={m.childModules.length > 0}>{m.moduleName}</Typography.Text>
        {choices(m.moduleName, toChoice(groupPermission(value, m)), (c) => apply([m], c))}
      </div>
      {m.childModules.map((c) => row(c, depth + 1))}
    </div>
  );

  return (
    <Collapse
      size="small"
      defaultActiveKey={apps.slice(0, 1).map((a) => String(a.appId))}
      items={apps.map((app) => ({
        key: String(app.appId),
        label: app.appName,
        extra: (
          <span onClick={(e) => e.stopPropagation()}>
            {choices(app.appName, toChoice(groupPermission(value, { moduleId: 0, moduleKey: '', moduleName: '', url: null, childModules: app.modules })), (c) => apply(app.modules, c))}
          </span>
        ),
        children: <div className="bolx-grants">{app.modules.map((m) => row(m, 0))}</div>,
      }))}
    />
  );
}
