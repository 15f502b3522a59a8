import type { io } from "socket.io-client";

type Handler = (...args: unknown[]) => void;

/**
 * A socket.io client socket that only records: the test plays the server with `serve` (an
 * `io:<event>` name fires a handler the core put on the Manager, such as `io:ping`). What the core
 * emits is kept in `emitted`; `connects` and `closed` say what it asked of the connection.
 */
export function fakeSocket({ connected = false }: { connected?: boolean } = {}) {
  const handlers = new Map<string, Handler[]>();
  const add = (event: string, fn: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), fn]);
  const socket = {
    connected,
    connects: 0,
    closed: false,
    emitted: [] as { event: string; args: unknown[] }[],
    io: {
      on(event: string, fn: Handler) {
        add(`io:${event}`, fn);
        return socket.io;
      },
    },
    on(event: string, fn: Handler) {
      add(event, fn);
      return socket;
    },
    emit(event: string, ...args: unknown[]) {
      socket.emitted.push({ event, args });
      return socket;
    },
    connect() {
      socket.connects++;
      return socket;
    },
    close() {
      socket.closed = true;
      socket.connected = false;
      return socket;
    },
    /** The server's side: fires an event at the client. */
    serve(event: string, ...args: unknown[]) {
      for (const fn of handlers.get(event) ?? []) fn(...args);
    },
  };
  return socket;
}

export type FakeSocket = ReturnType<typeof fakeSocket>;

/** The `connect` a core is given: it answers the one fake socket. */
export const connectingTo = (socket: FakeSocket) => (() => socket) as unknown as typeof io;
