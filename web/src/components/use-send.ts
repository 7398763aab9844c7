// The state of a "send a test" button: busy while the POST runs, then its results or its error.
import { useState } from 'preact/hooks';
import { api } from '../api';

export function useSend<T>(path: string): { results: T[] | null; busy: boolean; error: string | null; send: () => Promise<void> } {
  const [results, setResults] = useState<T[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (): Promise<void> => {
    setBusy(true);
    try {
      setResults(await api<T[]>('POST', path, {}));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { results, busy, error, send };
}
