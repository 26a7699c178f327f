/**
 * What reading a `google-docai` system's config needs: its options, checked, and the operations and secrets
 * they imply. The registry imports this module alone; the implementation (google-docai.ts, with the provider
 * helpers) loads with the first system of this kind (CONTRIBUTING.md, Habits).
 */
import type { Operation, SystemKindSettings } from '../types.js';
import type { FieldMap } from '../providers/field-map.js';

export interface GoogleDocAiOptions {
  /** `projects/{project}/locations/{location}/processors/{id}` (optionally `/processorVersions/{version}`). */
  processor: string;
  /** Default `https://{location}-documentai.googleapis.com`. */
  endpoint: string | undefined;
  /** Variable holding the path of a service account key file. @default GOOGLE_APPLICATION_CREDENTIALS */
  credentialsEnv: string;
  /** Variable holding an OAuth access token to use instead of the key file (e.g. `gcloud auth print-access-token`). */
  accessTokenEnv: string | undefined;
  /**
   * Dataset field path → entity type of the processor (Form Parser, Invoice, Custom Extractor …), or
   * `{from: "line_item", items: {amount: "line_item/amount"}}` for an array of objects; enables extract.
   */
  entityMap: FieldMap | undefined;
  /** Process only the first pages (`processOptions.fromStart`). */
  maxPages: number | undefined;
}

export const PROCESSOR = /^projects\/[^/]+\/locations\/([a-z0-9-]+)\/processors\/[^/]+(\/processorVersions\/[^/]+)?$/;

export const googleDocAiSettings: SystemKindSettings<GoogleDocAiOptions> = {
  kind: 'google-docai',
  description:
    'Google Document AI process endpoint (service account): layout markdown, line regions, entities for extract',
  docs: 'docs/providers.md',
  optionNames: ['processor', 'endpoint', 'credentialsEnv', 'accessTokenEnv', 'entityMap', 'maxPages'],
  parseOptions(read) {
    const processor = read.string('processor', 'projects/<project>/locations/us/processors/<id>');
    if (!PROCESSOR.test(processor))
      read.fail('processor', 'must look like projects/<project>/locations/<us|eu|…>/processors/<id>');
    return {
      processor,
      endpoint: read.optionalUrl('endpoint'),
      credentialsEnv: read.optionalEnvName('credentialsEnv') ?? 'GOOGLE_APPLICATION_CREDENTIALS',
      accessTokenEnv: read.optionalEnvName('accessTokenEnv'),
      entityMap: read.optionalFieldMap('entityMap'),
      maxPages: read.optionalNumber('maxPages', { min: 1, max: 1000, integer: true }),
    };
  },
  operations: (options) => operationsOf(options),
  secretEnvNames: (options) => (options.accessTokenEnv ? [options.accessTokenEnv] : []),
  identity: async (options) => googleDocAiIdentity(options),
};

export function operationsOf(options: GoogleDocAiOptions): Operation[] {
  return options.entityMap ? ['extract', 'compare', 'split', 'process'] : ['compare', 'split', 'process'];
}

/** The regional endpoint of a processor, unless one is configured. */
export function googleDocAiEndpoint(options: GoogleDocAiOptions): string {
  return options.endpoint ?? `https://${PROCESSOR.exec(options.processor)![1]!}-documentai.googleapis.com`;
}

/** What the cache files a google-docai system's answers under. */
export function googleDocAiIdentity(options: GoogleDocAiOptions): string {
  return `google-docai|${googleDocAiEndpoint(options)}|${options.processor}|${JSON.stringify(options.entityMap ?? {})}|max=${options.maxPages ?? 'all'}`;
}
