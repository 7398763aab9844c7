// Config fields liverec accepts and saves for brec compatibility but does not act on (the UI marks them; README lists them).
import type { FieldName } from './fields.js';

/** Why each accepted field has no effect in liverec; a field leaves this list when liverec starts acting on it. */
export const INERT_FIELDS: Partial<Record<FieldName, 'desktop-only' | 'not-implemented'>> = {
  FlvProcessorDisableSplitOnH264AnnexB: 'not-implemented',
  WpfShowTitleAndArea: 'desktop-only',
  WpfNotifyStreamStart: 'desktop-only',
  DanmakuAuthenticateWithStreamerUid: 'not-implemented',
  NetworkTransportUseSystemProxy: 'not-implemented',
  NetworkTransportAllowedAddressFamily: 'not-implemented',
  UserScript: 'not-implemented',
};

export const isInertField = (field: string): boolean => field in INERT_FIELDS;
