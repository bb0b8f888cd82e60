import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 11 item 4: the change recorder (platform/change-recorder.ts) is THE way a module records a change — its
// audit rows, hub events and domain events together. A module that writes audit rows or outbox events itself
// grows a private copy of it; this keeps the one way the one way.

const MODULES = fileURLToPath(new URL('../src/modules', import.meta.url));

const RULES: { what: string; pattern: RegExp }[] = [
  { what: 'writes audit rows itself (writeAudit/writeAudits): record the change with deps.recorder', pattern: /\bwriteAudits?\s*\(/ },
  { what: 'imports writeAudit/writeAudits: record the change with deps.recorder', pattern: /import\s*\{[^}]*\bwriteAudits?\b[^}]*\}\s*from\s*['"][^'"]*platform\/audit(\.js)?['"]/ },
  { what: 'records hub events itself (events.record/recordMany): put them in the change given to deps.recorder', pattern: /\bevents\s*\.\s*record(Many)?\s*\(|\.recordMany\s*\(/ },
  { what: 'writes the audit or outbox table directly', pattern: /insertInto\(\s*['"](audit_log|event_outbox)['"]\s*\)/ },
];


/** Every place in one source file that records a change some other way than through the recorder. */
export function directRecording(file: string, source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((text, i) => {
    const line = text.trim();
    if (line.startsWith('//') || line.startsWith('*')) return;
    for (const rule of RULES) if (rule.pattern.test(line)) found.push(`${file}:${i + 1} ${rule.what}`);
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('one change recorder', () => {
  it('no module writes audit rows or hub events except through the change recorder', () => {
    const files = sources(MODULES);
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((path) => directRecording(relative(MODULES, path).split('\\').join('/'), readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });

  it('catches each way around it (a planted violation)', () => {
    const planted = [
      "import { writeAudit } from '../../platform/audit.js';",
      "await writeAudit(tx, actor, { action: 'x', entity: 'y' });",
      'await writeAudits(uow.tx, actor, entries);',
      "await this.events.record(tx, { target: 'ReceiveSkuData', payload }, afterCommit);",
      'await this.deps.events.recordMany(uow.tx, events, uow.afterCommit);',
      "await tx.insertInto('audit_log').values(row).execute();",
      "await tx.insertInto('event_outbox').values(row).execute();",
    ];
    for (const line of planted) expect(directRecording('planted/planted.service.ts', line), line).toHaveLength(1);
    // The way it should be, a type import and a comment are fine.
    expect(directRecording('planted/planted.service.ts', [
      'await this.recorder.record(uow, actor, { audit, events });',
      "import type { AuditEntry } from '../../platform/audit.js';",
      '// never call writeAudit( here',
    ].join('\n'))).toEqual([]);
  });
});
