import { useRef } from "react";

/**
 * The record `current`, or while its list loads (or is empty) the last one seen: when the app
 * starts on this page, the core clears its lists before loading them (a session's start), and the
 * page would otherwise unmount for that moment and lose what the farmer was doing in it. A record
 * gone from a loaded list that holds others is gone.
 */
export function useHeldWhileLoading<T>(current: T | undefined, loading: boolean): T | undefined {
  const held = useRef<T | undefined>(current);
  if (current !== undefined) held.current = current;
  return current ?? (loading ? held.current : undefined);
}
