import { useCallback, useEffect, useRef, useState } from "react";
import { failureText } from "../../components/server-refusal.ts";

export type Load<T> = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; value: T };

/**
 * Runs `load` when the screen opens and whenever `key` changes, and again on retry. The latest
 * request wins: the answer of a range the farmer has already left is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): { state: Load<T>; retry: () => void } {
  const [state, setState] = useState<Load<T>>({ status: "loading" });
  const current = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const request = ++current.current;
    setState({ status: "loading" });
    loadRef.current().then(
      (value) => {
        if (request === current.current) setState({ status: "ready", value });
      },
      (err: unknown) => {
        if (request === current.current) setState({ status: "error", message: failureText(err) });
      },
    );
    return () => {
      current.current++;
    };
  }, [key, attempt]);

  return { state, retry: useCallback(() => setAttempt((n) => n + 1), []) };
}
