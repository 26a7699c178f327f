/**
 * What reading a `textract` system's config needs: its options, checked, and the operations and secrets
 * they imply. The registry imports this module alone; the implementation (textract.ts, with the provider
 * helpers) loads with the first system of this kind (CONTRIBUTING.md, Habits).
 */
import type { Operation, SystemKindSettings } from '../types.js';

export interface TextractOptions {
  /** AWS region; else AWS_REGION, else AWS_DEFAULT_REGION from the environment. */
  region: string | undefined;
  /** Another endpoint (a VPC endpoint, or a test server); default `https://textract.<region>.amazonaws.com`. */
  endpoint: string | undefined;
  /** Features for compare, split and process. @default [LAYOUT, TABLES, FORMS] */
  features: string[];
  /** Resolution multi-page documents' pages are rendered at. @default 200 */
  dpi: number;
  maxPages: number | undefined;
}

const FEATURES = ['LAYOUT', 'TABLES', 'FORMS', 'SIGNATURES'] as const;
export const OPERATIONS: readonly Operation[] = ['extract', 'compare', 'split', 'process'];
/** The standard credential variables (AWS CLI / SDK environment provider). */
export const CREDENTIAL_ENV = { accessKeyId: 'AWS_ACCESS_KEY_ID', secretAccessKey: 'AWS_SECRET_ACCESS_KEY', sessionToken: 'AWS_SESSION_TOKEN' } as const;

export const textractSettings: SystemKindSettings<TextractOptions> = {
  kind: 'textract',
  description: 'AWS Textract AnalyzeDocument (layout, tables, forms; queries for extract), SigV4 with the environment credentials',
  docs: 'docs/providers.md',
  optionNames: ['region', 'endpoint', 'features', 'dpi', 'maxPages'],
  parseOptions(read) {
    const region = read.optionalString('region');
    if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) read.fail('region', `must be an AWS region such as us-east-1, got ${JSON.stringify(region)}`);
    return {
      region,
      endpoint: read.optionalUrl('endpoint'),
      features: read.optionalStringList('features', FEATURES) ?? ['LAYOUT', 'TABLES', 'FORMS'],
      dpi: read.optionalNumber('dpi', { min: 72, max: 400, integer: true }) ?? 200,
      maxPages: read.optionalNumber('maxPages', { min: 1, max: 3000, integer: true }),
    };
  },
  operations: () => OPERATIONS,
  secretEnvNames: () => [CREDENTIAL_ENV.accessKeyId, CREDENTIAL_ENV.secretAccessKey, CREDENTIAL_ENV.sessionToken],
};
