/**
 * What reading a `azure-di` system's config needs: its options, checked, and the operations and secrets
 * they imply. The registry imports this module alone; the implementation (azure-di.ts, with the provider
 * helpers) loads with the first system of this kind (CONTRIBUTING.md, Habits).
 */
import type { Operation, SystemKindSettings } from '../types.js';
import type { FieldMap } from '../providers/field-map.js';

export interface AzureDiOptions {
  /** The resource's endpoint, e.g. `https://my-resource.cognitiveservices.azure.com`. */
  endpoint: string;
  /** @default AZURE_DOCUMENT_INTELLIGENCE_KEY */
  apiKeyEnv: string;
  /** @default 2024-11-30 (v4.0 GA) */
  apiVersion: string;
  /** The model for compare, split and process. @default prebuilt-layout */
  model: string;
  /** A prebuilt (e.g. `prebuilt-invoice`) or custom model for extract; extract is offered only with `fieldMap`. */
  extractModel: string | undefined;
  /**
   * Dataset field path (`billing.total`) → the model's field name (`InvoiceTotal`, or `Customer.Name` inside
   * an object field), or `{from: "Items", items: {description: "Description"}}` for an array of objects.
   */
  fieldMap: FieldMap | undefined;
}

export const azureDiSettings: SystemKindSettings<AzureDiOptions> = {
  kind: 'azure-di',
  description:
    'Azure AI Document Intelligence v4 (prebuilt-layout markdown, line regions; extract through a model and a field map)',
  docs: 'docs/providers.md',
  optionNames: ['endpoint', 'apiKeyEnv', 'apiVersion', 'model', 'extractModel', 'fieldMap'],
  parseOptions(read) {
    const options: AzureDiOptions = {
      endpoint:
        read.optionalUrl('endpoint') ??
        read.fail('endpoint', 'is required (https://<resource>.cognitiveservices.azure.com)'),
      apiKeyEnv: read.optionalEnvName('apiKeyEnv') ?? 'AZURE_DOCUMENT_INTELLIGENCE_KEY',
      apiVersion: read.optionalString('apiVersion') ?? '2024-11-30',
      model: read.optionalString('model') ?? 'prebuilt-layout',
      extractModel: read.optionalString('extractModel'),
      fieldMap: read.optionalFieldMap('fieldMap'),
    };
    if ((options.extractModel === undefined) !== (options.fieldMap === undefined))
      read.fail(
        options.extractModel ? 'fieldMap' : 'extractModel',
        'is needed too: extract takes a model and a map of its fields onto the schema',
      );
    return options;
  },
  operations: (options) => operationsOf(options),
  secretEnvNames: (options) => [options.apiKeyEnv],
  identity: async (options) => azureDiIdentity(options),
};

export function operationsOf(options: AzureDiOptions): Operation[] {
  return options.extractModel ? ['extract', 'compare', 'split', 'process'] : ['compare', 'split', 'process'];
}

/** What the cache files an azure-di system's answers under. */
export function azureDiIdentity(options: AzureDiOptions): string {
  return `azure-di|${options.endpoint}|${options.apiVersion}|${options.model}|${options.extractModel ?? '-'}|${JSON.stringify(options.fieldMap ?? {})}`;
}
