// The UI's languages: zh-CN and English, chosen from the browser (navigator.languages) and switchable (kept in localStorage).
import { useEffect, useState } from 'preact/hooks';
import { en, type Key } from './en';
import { zh } from './zh';

export type Lang = 'zh' | 'en';
export type { Key };
export const LANGS: Lang[] = ['zh', 'en'];
const DICTS: Record<Lang, Record<Key, string>> = { zh, en };
/** The BCP 47 tag of each language, for <html lang> and Intl formatting. */
export const LOCALE: Record<Lang, string> = { zh: 'zh-CN', en: 'en' };
const STORAGE_KEY = 'liverec.lang';

/** The first of the browser's languages that the UI speaks; English when none is. */
export function detectLang(languages: readonly string[]): Lang {
  for (const l of languages) {
    const base = l.toLowerCase().split('-')[0];
    if (base === 'zh' || base === 'en') return base;
  }
  return 'en';
}

function initialLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'zh' || saved === 'en') return saved;
  } catch {
    // Storage may be disabled; the browser's language still applies.
  }
  return detectLang(navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en']);
}

let current: Lang = initialLang();
const listeners = new Set<() => void>();
/** Keys asked for but absent from the current dictionary; tests read it (window.__liverecI18n) to prove none shows. */
const missing = new Set<string>();
(globalThis as { __liverecI18n?: unknown }).__liverecI18n = { missing, lang: () => current, dicts: DICTS };
document.documentElement.lang = LOCALE[current];

export const lang = (): Lang => current;
export const locale = (): string => LOCALE[current];

export function setLang(next: Lang): void {
  if (next === current) return;
  current = next;
  document.documentElement.lang = LOCALE[next];
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Not remembered, but switched for this page.
  }
  for (const l of listeners) l();
}

/** Whether a (possibly computed) key has a translation, for optional texts such as a setting's help. */
export const has = (key: string): boolean => key in DICTS[current];

/**
 * The text of `key` in the current language, with `{name}` placeholders filled from `params`.
 * A missing key shows as ⟦key⟧ and is recorded, so an untranslated string is visible and testable.
 */
export function t(key: Key | (string & {}), params?: Record<string, string | number>): string {
  const text = (DICTS[current] as Record<string, string>)[key];
  if (text === undefined) {
    missing.add(`${current}:${key}`);
    return `⟦${key}⟧`;
  }
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : text;
}

/** Re-renders the component when the language changes; returns the current one. */
export function useLang(): Lang {
  const [, setTick] = useState(0);
  useEffect(() => {
    const on = (): void => setTick((n) => n + 1);
    listeners.add(on);
    return () => void listeners.delete(on);
  }, []);
  return current;
}
