import type { Redis } from 'ioredis';
import type { KeyStateChanges, SessionRevocations } from './port';
import { createRedisChannel } from './redis-channel';

/** Session revocations over the channel `<prefix>session-revoked` (messages: token hashes). */
export function createRedisRevocations(redis: Redis, prefix: string): SessionRevocations {
  const channel = createRedisChannel(redis, `${prefix}session-revoked`);
  return {
    revoke: (tokenHash) => channel.publish(tokenHash),
    onRevoked: (listener) => channel.subscribe(listener),
    close: () => channel.close(),
  };
}

/** Key state changes over the channel `<prefix>key-state-changed` (messages: key ids). */
export function createRedisKeyStateChanges(redis: Redis, prefix: string): KeyStateChanges {
  const channel = createRedisChannel(redis, `${prefix}key-state-changed`);
  return {
    announce: (keyId) => channel.publish(String(keyId)),
    onChanged: (listener) =>
      channel.subscribe((message) => {
        const keyId = Number(message);
        if (Number.isSafeInteger(keyId)) listener(keyId);
      }),
    close: () => channel.close(),
  };
}
