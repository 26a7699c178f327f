/**
 * What reading a `textract` system's config needs: its options, checked, and the operations and secrets
 * they imply. The registry imports this module alone; the implementation (textract.ts, with the provider
 * helpers) loads with the first system of this kind (CONTRIBUTING.md, Habits).
 */
import type { Operation, SystemKindSettings } from '../types.js';

export interface TextractOptions {
  /**
   * The API compare, split and process call: AnalyzeDocument (with `features`), or DetectDocumentText (lines
   * and words only, Textract's cheapest; no extract). @default AnalyzeDocument
   */
  api: TextractApi;
  /** AWS region; else AWS_REGION, else AWS_DEFAULT_REGION from the environment. */
  region: string | undefined;
  /** Another endpoint (a VPC endpoint, or a test server); default `https://textract.<region>.amazonaws.com`. */
  endpoint: string | undefined;
  /** Features for compare, split and process. @default [LAYOUT, TABLES, FORMS] */
  features: string[];
  /** Features for extract: QUERIES (one per scalar field, at most 15), FORMS (key-value pairs). @default [QUERIES, FORMS] */
  extractFeatures: ExtractFeature[];
  /** Dataset path → a FORMS key as printed (`billing.total: Total Due`); unmapped fields are matched by name. */
  fieldMap: Record<string, string>;
  /** Resolution multi-page documents' pages are rendered at. @default 200 */
  dpi: number;
  maxPages: number | undefined;
}

const FEATURES = ['LAYOUT', 'TABLES', 'FORMS', 'SIGNATURES'] as const;
const EXTRACT_FEATURES = ['QUERIES', 'FORMS'] as const;
const APIS = ['AnalyzeDocument', 'DetectDocumentText'] as const;
export type ExtractFeature = (typeof EXTRACT_FEATURES)[number];
export type TextractApi = (typeof APIS)[number];
const OPERATIONS: readonly Operation[] = ['extract', 'compare', 'split', 'process'];
/** The standard credential variables (AWS CLI / SDK environment provider). */
export const CREDENTIAL_ENV = {
  accessKeyId: 'AWS_ACCESS_KEY_ID',
  secretAccessKey: 'AWS_SECRET_ACCESS_KEY',
  sessionToken: 'AWS_SESSION_TOKEN',
} as const;

export const textractSettings: SystemKindSettings<TextractOptions> = {
  kind: 'textract',
  description:
    'AWS Textract AnalyzeDocument (layout, tables, forms; queries and forms for extract) or DetectDocumentText, SigV4 with the environment credentials',
  docs: 'docs/providers.md',
  optionNames: ['region', 'endpoint', 'api', 'features', 'extractFeatures', 'fieldMap', 'dpi', 'maxPages'],
  parseOptions(read) {
    const region = read.optionalString('region');
    if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region))
      read.fail('region', `must be an AWS region such as us-east-1, got ${JSON.stringify(region)}`);
    const api = read.optionalEnum('api', APIS) ?? 'AnalyzeDocument';
    const features = read.optionalStringList('features', FEATURES);
    const extractFeatures = read.optionalStringList('extractFeatures', EXTRACT_FEATURES);
    const fieldMap = read.optionalStringMap('fieldMap');
    if (api === 'DetectDocumentText') {
      const analyzeOnly = features ? 'features' : extractFeatures ? 'extractFeatures' : fieldMap ? 'fieldMap' : null;
      if (analyzeOnly)
        read.fail(analyzeOnly, 'is for api: AnalyzeDocument; DetectDocumentText reads text only (and cannot extract)');
    }
    if (fieldMap && extractFeatures && !extractFeatures.includes('FORMS'))
      read.fail('fieldMap', 'maps FORMS keys: add FORMS to extractFeatures');
    return {
      region,
      endpoint: read.optionalUrl('endpoint'),
      api,
      features: features ?? ['LAYOUT', 'TABLES', 'FORMS'],
      extractFeatures: extractFeatures ?? ['QUERIES', 'FORMS'],
      fieldMap: fieldMap ?? {},
      dpi: read.optionalNumber('dpi', { min: 72, max: 400, integer: true }) ?? 200,
      maxPages: read.optionalNumber('maxPages', { min: 1, max: 3000, integer: true }),
    };
  },
  operations: (options) => operationsOf(options),
  secretEnvNames: () => [CREDENTIAL_ENV.accessKeyId, CREDENTIAL_ENV.secretAccessKey, CREDENTIAL_ENV.sessionToken],
  identity: async (options, context) => textractIdentity(options, textractRegion(options, context.env) ?? 'no-region'),
};

/** The region option, else the environment's. */
export function textractRegion(
  options: TextractOptions,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
}

/** What the cache files a textract system's answers under. */
export function textractIdentity(options: TextractOptions, region: string): string {
  const endpoint = new URL(options.endpoint ?? `https://textract.${region}.amazonaws.com`);
  return `textract|${endpoint.origin}|${region}|${options.api}|${options.features.join('+')}|${options.extractFeatures.join('+')}|${JSON.stringify(options.fieldMap)}|dpi=${options.dpi}|max=${options.maxPages ?? 'all'}`;
}

/** DetectDocumentText has no fields to extract. */
export function operationsOf(options: TextractOptions): Operation[] {
  return options.api === 'DetectDocumentText' ? OPERATIONS.filter((op) => op !== 'extract') : [...OPERATIONS];
}
