/**
 * The connection pool (an undici Agent) of a client, made on first use: docbench loads undici with the first
 * call, not at import (CONTRIBUTING.md, Habits). Shared by the service client and the provider kinds' HTTP.
 */
import type { Agent, Dispatcher } from 'undici';

export interface LazyAgent {
  /** The agent, loading undici and making it on the first call. */
  get(): Promise<Dispatcher>;
  /** Closes the agent if one was made. Idempotent: a runner may close in a finally and again on shutdown. */
  close(): Promise<void>;
}

export function createLazyAgent(options: Agent.Options): LazyAgent {
  let agent: Promise<Dispatcher> | undefined;
  let closing: Promise<void> | undefined;
  return {
    get: () =>
      (agent ??= import('undici').then(({ Agent }) => {
        const made = new Agent(options);
        // Made after close(): closed at once, so its requests fail as they would on a closed pool.
        if (closing) void made.close();
        return made;
      })),
    close: () => (closing ??= agent ? agent.then((made) => made.close()) : Promise.resolve()),
  };
}
