/**
 * `interface`: a service speaking the service interface (../shared/service-interface.md), through the typed
 * client of src/service. `--base-url` alone is one system of this kind named `service`.
 */
import {
  createClient,
  DEFAULT_AUTH,
  type AuthHeader,
  type ServiceClient,
  type EndpointResult,
  type CallOutcome,
} from '../../service/index.js';
import { type Endpoint, ENDPOINTS } from '../../types.js';
import type { CommonSystemOptions, System, SystemCall, SystemContext, SystemKind, SystemOutcome } from '../types.js';

export interface InterfaceOptions {
  /** e.g. https://api.example.com */
  baseUrl: string;
  /** The environment variable holding the key; null: no key is sent. */
  apiKeyEnv: string | null;
  /** Header carrying the key, per endpoint. @default interface §5 */
  auth: Record<Endpoint, AuthHeader>;
  /** Largest response read. @default 104857600 */
  maxResponseBytes: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

export const interfaceKind: SystemKind<InterfaceOptions> = {
  kind: 'interface',
  description: 'a service speaking the service interface over HTTP (baseUrl, apiKeyEnv)',
  docs: 'docs/systems.md',
  optionNames: ['baseUrl', 'apiKeyEnv', 'maxResponseBytes'],
  parseOptions(read) {
    return {
      baseUrl:
        read.optionalUrl('baseUrl') ?? read.fail('baseUrl', 'is required, e.g. baseUrl: https://api.example.com'),
      apiKeyEnv: read.optionalEnvName('apiKeyEnv') ?? null,
      auth: { ...DEFAULT_AUTH },
      maxResponseBytes:
        read.optionalNumber('maxResponseBytes', { min: 1, integer: true }) ?? DEFAULT_MAX_RESPONSE_BYTES,
    };
  },
  operations: () => ENDPOINTS,
  secretEnvNames: (options) => (options.apiKeyEnv ? [options.apiKeyEnv] : []),
  identity: async (options) => options.baseUrl,
  async create(options, context) {
    const apiKey = options.apiKeyEnv ? context.env[options.apiKeyEnv]?.trim() || null : null;
    const client = createSystemClient(options.baseUrl, apiKey, options, context);
    return clientSystem(context.name, 'interface', options.baseUrl, client, async () => client.close());
  },
};

/** The client every HTTP-interface system uses, with the system's own timeout, retry and connection count. */
export function createSystemClient(
  baseUrl: string,
  apiKey: string | null,
  options: Pick<InterfaceOptions, 'auth' | 'maxResponseBytes'>,
  context: SystemContext,
): ServiceClient {
  const common: CommonSystemOptions = context.common;
  return createClient({
    baseUrl,
    apiKey,
    timeoutMs: common.timeoutMs,
    retry: common.retry,
    auth: options.auth,
    maxResponseBytes: options.maxResponseBytes,
    connections: common.concurrency,
    onAttempt: (event) => {
      if (event.error)
        context.logger.debug(
          `${context.name} ${event.endpoint} attempt ${event.attempt}: ${event.error}${event.retryInMs !== undefined ? `, retrying in ${event.retryInMs} ms` : ''}`,
        );
    },
  });
}

/** A system that answers every operation through an interface client. */
export function clientSystem(
  name: string,
  kind: string,
  identity: string,
  client: ServiceClient,
  close: () => Promise<void>,
): System {
  return {
    name,
    kind,
    identity,
    operations: new Set(ENDPOINTS),
    call: (call) => callClient(client, call),
    prepare: () => client.prepare(),
    close,
  };
}

async function callClient(client: ServiceClient, { input, request, signal }: SystemCall): Promise<SystemOutcome> {
  let outcome: CallOutcome<EndpointResult>;
  switch (request.operation) {
    case 'extract':
      outcome = await client.extract(
        input,
        {
          schema: request.schema,
          fast: request.mode === 'fast',
          ...(request.customContext ? { customContext: request.customContext } : {}),
        },
        signal,
      );
      break;
    case 'compare':
      outcome = await client.compare(
        input,
        request.baselineMarkdown === null ? {} : { baselineMarkdown: request.baselineMarkdown },
        signal,
      );
      break;
    case 'split':
      outcome = await client.split(input, signal);
      break;
    case 'process':
      outcome = await client.process(input, request.params, signal);
      break;
  }
  if (!outcome.ok) return outcome;
  return {
    ok: true,
    result: outcome.result,
    attempts: outcome.attempts,
    latencyMs: outcome.latencyMs,
    lastAttemptMs: outcome.lastAttemptMs,
  };
}
