// A short-lived message line for the result of an action.
import { useState } from 'preact/hooks';

export interface Notice { text: string; error: boolean }

export function useNotice(): [Notice | null, (text: string, error?: boolean) => void] {
  const [notice, setNotice] = useState<Notice | null>(null);
  return [notice, (text, error = false) => setNotice({ text, error })];
}

export function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return <p class={notice.error ? 'notice error' : 'notice'} role="status">{notice.text}</p>;
}
