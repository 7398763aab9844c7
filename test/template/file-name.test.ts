// File-name templates: brec's default, variables, filters, the random tag, sanitisation, statuses and fallbacks.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_NAME_TEMPLATE } from '../../src/config/fields.js';
import { FileNameStatus, generateFileName, recordingPath, type FileNameContext } from '../../src/template/index.js';

const now = new Date('2024-03-17T04:34:56.123Z'); // 12:34:56.123 in Asia/Shanghai
const ctx: FileNameContext = {
  roomId: 23058, shortId: 3, name: '哔哩哔哩直播', uid: 11153765, title: '测试标题', areaParent: '生活', areaChild: '日常',
  partIndex: 2, qn: 10000, json: { room_info: { cover: 'cover.jpg', tags: ['a', 'b'] } },
};
const gen = (template: string | null, extra: Partial<Parameters<typeof generateFileName>[1]> = {}, c: Partial<FileNameContext> = {}) =>
  generateFileName({ ...ctx, ...c }, { template, workDir: '/rec', sanitizeContext: true, now, ...extra });
const defaultPath = '23058-哔哩哔哩直播/录制-23058-20240317-123456-123-测试标题.flv';

describe('generateFileName', () => {
  it('renders brec\'s default template (Asia/Shanghai time, .NET format)', () => {
    expect(gen(null)).toEqual({ status: 0, errorMessage: null, relativePath: defaultPath, fullPath: `/rec/${defaultPath}` });
    expect(gen('   ').relativePath).toBe(defaultPath);
    expect(gen(DEFAULT_FILE_NAME_TEMPLATE).relativePath).toBe(defaultPath);
  });

  it('exposes every variable, with json navigable by property and index', () => {
    const t = '{{roomId}}_{{shortId}}_{{name}}_{{uid}}_{{title}}_{{areaParent}}_{{areaChild}}_{{partIndex}}_{{qn}}_{{json.room_info.cover}}_{{json.room_info.tags[1]}}';
    expect(gen(t).relativePath).toBe('23058_3_哔哩哔哩直播_11153765_测试标题_生活_日常_2_10000_cover.jpg_b.flv');
  });

  it.each([
    [30000, '杜比'], [20000, '4K'], [10000, '原画'], [401, '蓝光(杜比)'], [400, '蓝光'], [250, '超清'], [150, '高清'], [80, '流畅'],
    [-1, '录播姬脚本'], [123, '未知(123)'],
  ])('format_qn %i → %s', (qn, name) => {
    expect(gen('{{ qn | format_qn }}', {}, { qn }).relativePath).toBe(`${name}.flv`);
  });

  it('{% random N %} gives N digits, 3 when N is not an integer', () => {
    expect(gen('{% random 5 %}').relativePath).toMatch(/^\d{5}\.flv$/);
    expect(gen('{% random x %}').relativePath).toMatch(/^\d{3}\.flv$/);
    expect(gen('{% random %}').relativePath).toMatch(/^\d{3}\.flv$/);
    const seq = [0.1, 0.25, 0.99];
    let i = 0;
    expect(gen('{% random 3 %}', { random: () => seq[i++]! }).relativePath).toBe('129.flv');
  });

  it('uses one instant for every "now" in a render', () => {
    const r = gen('{{ "now" | format_date: "fff" }}-{{ "now" | time_zone: "UTC" | format_date: "HHmmssfff" }}');
    expect(r.relativePath).toBe('123-043456123.flv');
  });

  it('pre-sanitises values during recording (slashes included) and not for the API', () => {
    const c = { name: 'a/b\\c', title: 'x:y*?"<>|' };
    expect(gen('{{ name }}/{{ title }}', {}, c).relativePath).toBe('a_b_c/x_y______.flv');
    expect(gen('{{ name }}/{{ title }}', { sanitizeContext: false }, c).relativePath).toBe('a/b/c/x_y______.flv');
  });

  it('replaces invalid characters after rendering and puts _ after a space or dot before a slash', () => {
    expect(gen('a./b /c<d>.flv').relativePath).toBe('a._/b _/c_d_.flv');
    expect(gen('tab\there').relativePath).toBe('tab_here.flv');
  });

  it('keeps .flv (any case) and appends it otherwise', () => {
    expect(gen('x.FLV').relativePath).toBe('x.FLV');
    expect(gen('x.mp4').relativePath).toBe('x.mp4.flv');
  });

  it('cannot leave the work directory: .. segments are defused, absolute paths are OutOfRange', () => {
    const up = gen('../../etc/passwd');
    expect(up.status).toBe(0);
    expect(up.fullPath.startsWith('/rec/')).toBe(true);
    const abs = gen('/etc/passwd');
    expect(abs).toMatchObject({ status: FileNameStatus.OutOfRange, relativePath: defaultPath, fullPath: `/rec/${defaultPath}` });
    expect(abs.errorMessage).toMatch(/work directory/);
    expect(gen('').status).toBe(0); // blank = default template
  });

  it('reports TemplateError with the default template\'s path', () => {
    for (const t of ['{{ roomId', '{% if roomId %}x', '{% nosuchtag %}', '{{ "now" | format_date: "ffffffff" }}', '{% include "/etc/hostname" %}']) {
      const r = gen(t);
      expect(r.status, t).toBe(FileNameStatus.TemplateError);
      expect(r.errorMessage, t).toBeTruthy();
      expect(r.relativePath, t).toBe(defaultPath);
    }
  });

  it('stops runaway templates by liquidjs\' limits (render or memory), not by finishing them', () => {
    const r = gen('{% for i in (1..100000000) %}{{ i }}{% endfor %}');
    expect(r.status).toBe(FileNameStatus.TemplateError);
    expect(r.errorMessage).toMatch(/limit exceeded/);
  });

  it('reports FileConflict when the file exists, with the default template\'s path', () => {
    const r = gen('fixed', { exists: (p) => p === '/rec/fixed.flv' });
    expect(r).toMatchObject({ status: FileNameStatus.FileConflict, relativePath: defaultPath });
  });
});

describe('recordingPath (worker side)', () => {
  it('never overwrites: a taken fallback path gets -1, -2, …', () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-tpl-'));
    writeFileSync(join(dir, 'fixed.flv'), '');
    mkdirSync(join(dir, '23058-哔哩哔哩直播'));
    writeFileSync(join(dir, defaultPath), '');
    writeFileSync(join(dir, defaultPath.replace('.flv', '-1.flv')), '');
    const r = recordingPath(ctx, { template: 'fixed', workDir: dir, now });
    expect(r.status).toBe(FileNameStatus.FileConflict);
    expect(r.relativePath).toBe(defaultPath.replace('.flv', '-2.flv'));
    expect(r.fullPath).toBe(join(dir, r.relativePath));
  });

  it('returns the template\'s path when it is free', () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-tpl-'));
    expect(recordingPath(ctx, { template: '{{ roomId }}/{{ partIndex }}', workDir: dir, now })).toMatchObject({ status: 0, relativePath: '23058/2.flv' });
  });
});
