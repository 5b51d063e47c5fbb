import type { KeyStateChanges, SessionRevocations } from './port';

/** In-process listeners: what is announced reaches this process's listeners before the call resolves. */
function createMemoryChannel<T>() {
  const listeners: ((message: T) => void)[] = [];
  return {
    async publish(message: T) {
      for (const listener of listeners) listener(message);
    },
    subscribe(listener: (message: T) => void) {
      listeners.push(listener);
    },
    async close() {
      listeners.length = 0;
    },
  };
}

/** One process: a revocation calls this process's listeners before `revoke` resolves. */
export function createMemoryRevocations(): SessionRevocations {
  const channel = createMemoryChannel<string>();
  return { revoke: channel.publish, onRevoked: channel.subscribe, close: channel.close };
}

/** One process: the keys service's own changes reach this process's key-state cache. */
export function createMemoryKeyStateChanges(): KeyStateChanges {
  const channel = createMemoryChannel<number>();
  return { announce: channel.publish, onChanged: channel.subscribe, close: channel.close };
}
