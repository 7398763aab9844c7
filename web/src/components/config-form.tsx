// The settings editor shared by Settings (global) and Room detail (per-room overrides): brec's groups, labels, help, units.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { DASH, duration } from '../format';
import { has, t } from '../i18n';
import { ENUMS, groupFields, inertReason, LIVEREC_ONLY, MULTILINE, SECRET, UNIT_MS, unitOf, type Group } from '../settings/meta';
import type { Optional } from '../types';

export type Values = Record<string, Optional>;

/** `optionalRecordMode` → `recordMode` (the key of /api/config/default). */
export const plainKey = (key: string): string => key.charAt(8).toLowerCase() + key.slice(9);
/** `recordMode` → `optionalRecordMode` (the key of the config DTOs). */
const optionalKey = (name: string): string => `optional${name.charAt(0).toUpperCase()}${name.slice(1)}`;

export interface ConfigFormProps {
  /** The overrides being edited (GET /api/config/global or /api/room/{id}/config), optional… keys only. */
  values: Values;
  /** What applies when this level has no override: [value, 'default' | 'global']. */
  inherited(key: string): [unknown, 'default' | 'global'];
  defaults: Record<string, unknown>;
  onSave(changes: Values): Promise<void>;
  /** Extra content below a field (the template preview, the webhook test button). */
  extra?: (key: string, value: unknown) => ComponentChildren;
  idPrefix: string;
}

interface InputProps { id: string; name: string; kind: string; value: unknown; disabled: boolean; onChange(v: unknown): void }

function Input({ id, name, kind, value, disabled, onChange }: InputProps) {
  const options = ENUMS[name];
  if (options) {
    const numeric = typeof options[0] === 'number';
    return <select id={id} disabled={disabled} value={String(value)} onChange={(e) => onChange(numeric ? Number(e.currentTarget.value) : e.currentTarget.value)}>{options.map((v) => <option value={String(v)}>{t(`enum.${name}.${v}`)}</option>)}</select>;
  }
  if (kind === 'boolean') {
    return <label class="toggle"><input id={id} type="checkbox" disabled={disabled} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} /> {t(value === true ? 'common.on' : 'common.off')}</label>;
  }
  if (kind === 'number') return <input id={id} type="number" min="0" disabled={disabled} value={String(value ?? 0)} onInput={(e) => onChange(Number(e.currentTarget.value))} />;
  if (MULTILINE.has(name)) return <textarea id={id} rows={3} disabled={disabled} value={String(value ?? '')} onInput={(e) => onChange(e.currentTarget.value)} />;
  if (SECRET.has(name)) return <input id={id} type="password" autocomplete="off" disabled={disabled} value={String(value ?? '')} onInput={(e) => onChange(e.currentTarget.value)} />;
  return <input id={id} type="text" disabled={disabled} value={String(value ?? '')} onInput={(e) => onChange(e.currentTarget.value)} />;
}

/** A value as read in the "in effect" line: on/off, the enum's label, "600 s (10m00s)", "—" for empty. */
function shownValue(name: string, value: unknown, unit: ReturnType<typeof unitOf>): string {
  if (value === null || value === undefined || value === '') return DASH;
  if (typeof value === 'boolean') return t(value ? 'common.on' : 'common.off');
  if (ENUMS[name]) return t(`enum.${name}.${String(value)}`);
  if (SECRET.has(name)) return '••••••';
  if (typeof value === 'number' && unit) {
    const ms = UNIT_MS[unit];
    return `${value} ${t(`unit.${unit}`)}${ms && value * ms >= 60_000 ? ` (${duration(value * ms)})` : ''}`;
  }
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export function ConfigForm({ values, inherited, defaults, onSave, extra, idPrefix }: ConfigFormProps) {
  const [edits, setEdits] = useState<Values>({});
  const [saving, setSaving] = useState(false);
  useEffect(() => setEdits({}), [values]);
  const current = (k: string): Optional => edits[k] ?? values[k];
  const set = (k: string, o: Optional): void => setEdits({ ...edits, [k]: o });
  const dirty = Object.keys(edits).length > 0;
  /** The value in effect at this level, edits included (a room config has no CuttingMode key only if brec's set changes). */
  const effective = (name: string): unknown => {
    const k = optionalKey(name);
    const o = current(k);
    return o?.hasValue ? o.value : o ? inherited(k)[0] : defaults[name];
  };
  const groups = groupFields(Object.keys(values).filter((k) => k.startsWith('optional')).map(plainKey));

  const save = async (e: Event) => {
    e.preventDefault();
    setSaving(true);
    try {
      await onSave(edits);
    } finally {
      setSaving(false);
    }
  };

  const field = (name: string) => {
    const k = optionalKey(name);
    const o = current(k);
    const [inh, source] = inherited(k);
    const id = `${idPrefix}-${name}`;
    const shown = o.hasValue ? o.value : inh;
    const unit = unitOf(name, effective('cuttingMode'));
    const inert = inertReason(name);
    return (
      <div class={`setting${inert ? ' inert' : ''}`} key={k} data-key={name}>
        <div class="setting-head">
          <label for={id}>{t(`set.${name}`)}</label>
          <code class="key">{name.charAt(0).toUpperCase() + name.slice(1)}</code>
          {LIVEREC_ONLY.has(name) && <span class="badge">{t('form.liverec')}</span>}
          {inert && <span class="badge inert-badge" data-inert={inert}>{t(`form.inert.${inert}`)}</span>}
        </div>
        {/* Every field has help text: a field without one shows its key, which the browser test catches. */}
        <p class="help">{t(`set.${name}.help`)}</p>
        <div class="setting-value">
          <label class="toggle override"><input type="checkbox" data-override={name} checked={o.hasValue} onChange={(e) => set(k, { hasValue: e.currentTarget.checked, value: e.currentTarget.checked ? inh : o.value })} /> {t('form.override')}</label>
          <Input id={id} name={name} kind={typeof defaults[name]} value={shown} disabled={!o.hasValue} onChange={(v) => set(k, { hasValue: true, value: v })} />
          {unit && <span class="unit">{t(`unit.${unit}`)}</span>}
        </div>
        <p class="source">{t('form.effective', { value: shownValue(name, shown, unit) })} · {t(o.hasValue ? 'form.from.this' : `form.from.${source}`)}</p>
        {extra?.(name, shown)}
      </div>
    );
  };

  const group = (g: Group) => (
    <fieldset class="group" key={g.id} data-group={g.id}>
      <legend>{t(`group.${g.id}`)}</legend>
      {has(`group.${g.id}.help`) && <p class="help">{t(`group.${g.id}.help`)}</p>}
      {g.fields.map(field)}
    </fieldset>
  );
  const advanced = groups.filter((g) => g.advanced);

  return (
    <form class="config" onSubmit={save}>
      <div class="form-actions">
        <button type="submit" data-action="save" disabled={!dirty || saving}>{t(saving ? 'form.saving' : 'form.save')}</button>
        <button type="button" disabled={!dirty} onClick={() => setEdits({})}>{t('form.discard')}</button>
        <span class="hint">{dirty ? t('form.unsaved', { n: Object.keys(edits).length }) : t('form.tickHint')}</span>
      </div>
      {groups.filter((g) => !g.advanced).map(group)}
      {advanced.length > 0 && (
        <details class="advanced" open={advanced.some((g) => g.fields.some((f) => values[optionalKey(f)]?.hasValue))}>
          <summary>{t('form.advanced')}</summary>
          <p class="help">{t('form.advancedHint')}</p>
          {advanced.map(group)}
        </details>
      )}
    </form>
  );
}
