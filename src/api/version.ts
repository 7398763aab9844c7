// GET /api/version: brec's 33-field RecorderVersion (GitVersion names), every value a string, built from VERSION.
import { createRoute, z } from '@hono/zod-openapi';
import { VERSION } from '../version.js';
import type { ApiApp } from './context.js';
import { sendJson } from './json.js';

/** GitVersion's field names, in brec's order (REST and GraphQL share them). */
export const RECORDER_VERSION_FIELDS = [
  'major', 'minor', 'patch', 'preReleaseTag', 'preReleaseTagWithDash', 'preReleaseLabel', 'preReleaseLabelWithDash',
  'preReleaseNumber', 'weightedPreReleaseNumber', 'buildMetaData', 'buildMetaDataPadded', 'fullBuildMetaData',
  'majorMinorPatch', 'semVer', 'legacySemVer', 'legacySemVerPadded', 'assemblySemVer', 'assemblySemFileVer', 'fullSemVer',
  'informationalVersion', 'branchName', 'escapedBranchName', 'sha', 'shortSha', 'nuGetVersionV2', 'nuGetVersion',
  'nuGetPreReleaseTagV2', 'nuGetPreReleaseTag', 'versionSourceSha', 'commitsSinceVersionSource',
  'commitsSinceVersionSourcePadded', 'uncommittedChanges', 'commitDate',
] as const;
type VersionField = (typeof RECORDER_VERSION_FIELDS)[number];

export const RecorderVersionSchema = z
  .object(Object.fromEntries(RECORDER_VERSION_FIELDS.map((f) => [f, z.string()])) as Record<VersionField, z.ZodString>)
  .openapi('RecorderVersion');

/** GitVersion-style fields of a semver string such as `1.2.3` or `1.2.3-beta.4+build.5`. */
export function recorderVersion(version: string): Record<VersionField, string> {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(version);
  const [major = '0', minor = '0', patch = '0', pre = '', build = ''] = m ? m.slice(1).map((x) => x ?? '') : [];
  const label = pre.replace(/\.?\d+$/, '');
  const number = /(\d+)$/.exec(pre)?.[1] ?? '';
  const mmp = `${major}.${minor}.${patch}`;
  const semVer = pre ? `${mmp}-${pre}` : mmp;
  const full = build ? `${semVer}+${build}` : semVer;
  return {
    major, minor, patch, preReleaseTag: pre, preReleaseTagWithDash: pre ? `-${pre}` : '', preReleaseLabel: label,
    preReleaseLabelWithDash: label ? `-${label}` : '', preReleaseNumber: number, weightedPreReleaseNumber: number || '0',
    buildMetaData: build, buildMetaDataPadded: build, fullBuildMetaData: build, majorMinorPatch: mmp, semVer,
    legacySemVer: semVer, legacySemVerPadded: semVer, assemblySemVer: `${mmp}.0`, assemblySemFileVer: `${mmp}.0`,
    fullSemVer: full, informationalVersion: full, branchName: '', escapedBranchName: '', sha: '', shortSha: '',
    nuGetVersionV2: semVer, nuGetVersion: semVer, nuGetPreReleaseTagV2: pre, nuGetPreReleaseTag: pre, versionSourceSha: '',
    commitsSinceVersionSource: '0', commitsSinceVersionSourcePadded: '0000', uncommittedChanges: '0', commitDate: '',
  };
}

const route = createRoute({
  method: 'get', path: '/api/version', summary: '读取软件版本信息', tags: ['Version'],
  responses: { 200: { content: { 'application/json': { schema: RecorderVersionSchema } }, description: 'liverec\'s version in GitVersion fields' } },
});

export function registerVersionRoutes(app: ApiApp): void {
  const body = recorderVersion(VERSION);
  app.openapi(route, (c) => sendJson(c, body, 200));
}
