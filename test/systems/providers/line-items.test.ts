/**
 * Line items: an array of objects in the dataset's schema, filled from Azure's `Items` field and from
 * Document AI's repeated `line_item` entities. There is no vendor recording of either here, so the answers
 * follow the vendors' documented response shapes:
 * - Azure prebuilt-invoice, Document Models - Get Analyze Result, api-version 2023-07-31
 *   (https://learn.microsoft.com/rest/api/aiservices/document-models/get-analyze-result?view=rest-aiservices-2023-07-31):
 *   `documents[0].fields.Items = {type: "array", valueArray: [{type: "object", valueObject: {Description,
 *   Quantity, UnitPrice, Amount, Date …}}]}`, currency fields as `valueCurrency.amount`, dates as `valueDate`
 *   (field list: "Document Intelligence invoice model", line items table);
 * - Document AI Invoice Parser, `Document.entities[]` (https://cloud.google.com/document-ai/docs/reference/rest/v1/Document#entity):
 *   one `line_item` entity per row with `properties` typed `line_item/description`, `line_item/quantity`,
 *   `line_item/unit_price`, `line_item/amount`; `normalizedValue.moneyValue` `{currencyCode, units, nanos}`
 *   (int64 units as strings) and `normalizedValue.dateValue` `{year, month, day}`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { azureDiKind } from '../../../src/systems/kinds/azure-di.js';
import { googleDocAiKind } from '../../../src/systems/kinds/google-docai.js';
import { parseKindOptions } from '../../../src/systems/config.js';
import type { ExtractResult } from '../../../src/service/types.js';
import type { JsonSchema } from '../../../src/types.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { ONE_PAGE, createSystem, extractRequest, makeCall, makeContext, sendJson } from './context.js';

/** A dataset's schema: the invoice's items, typed; names in the dataset's own words, not the providers'. */
const SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    invoice_date: { type: 'string', format: 'date' },
    total: { type: 'number' },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: { type: 'string' },
          quantity: { type: 'number' },
          price: { type: 'number', title: 'Unit price' },
          amount: { type: 'number' },
          shipped: { type: 'string', format: 'date', description: 'the date of the line item' },
        },
      },
    },
  },
};

const EXPECTED_ITEMS = [
  { description: 'Consulting Services', quantity: 2, price: 30, amount: 60, shipped: '2021-03-04' },
  { description: 'Document Fee', quantity: 3, price: 10, amount: 30, shipped: '2021-03-05' },
];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('azure-di: Items into an array of objects', () => {
  const text = (value: string, confidence = 0.9) => ({
    type: 'string',
    valueString: value,
    content: value,
    confidence,
  });
  const money = (amount: number, confidence = 0.9) => ({
    type: 'currency',
    valueCurrency: { currencySymbol: '$', amount, currencyCode: 'USD' },
    content: `$${amount.toFixed(2)}`,
    confidence,
  });
  const number = (value: number) => ({ type: 'number', valueNumber: value, content: String(value), confidence: 0.9 });
  const date = (value: string, printed: string) => ({
    type: 'date',
    valueDate: value,
    content: printed,
    confidence: 0.9,
  });
  const item = (
    description: string,
    quantity: number,
    unitPrice: number,
    shipped: string,
    printed: string,
    confidence: number,
  ) => ({
    type: 'object',
    valueObject: {
      Description: text(description),
      Quantity: number(quantity),
      UnitPrice: money(unitPrice),
      Amount: money(quantity * unitPrice),
      Date: date(shipped, printed),
    },
    content: `${printed} ${description} ${quantity} $${unitPrice}`,
    confidence,
  });
  const ANSWER = {
    status: 'succeeded',
    createdDateTime: '2021-09-24T13:00:46Z',
    lastUpdatedDateTime: '2021-09-24T13:00:49Z',
    analyzeResult: {
      apiVersion: '2023-07-31',
      modelId: 'prebuilt-invoice',
      stringIndexType: 'textElements',
      content: 'CONTOSO LTD.\nINVOICE',
      pages: [
        {
          pageNumber: 1,
          angle: 0,
          width: 8.5,
          height: 11,
          unit: 'inch',
          words: [],
          lines: [],
          spans: [{ offset: 0, length: 20 }],
        },
      ],
      documents: [
        {
          docType: 'invoice',
          confidence: 1,
          fields: {
            InvoiceDate: date('2019-11-15', '11/15/2019'),
            InvoiceTotal: money(110, 0.8),
            Items: {
              type: 'array',
              valueArray: [
                item('Consulting Services', 2, 30, '2021-03-04', '3/4/2021', 0.7),
                item('Document Fee', 3, 10, '2021-03-05', '3/5/2021', 0.9),
              ],
            },
          },
        },
      ],
    },
  };

  async function extract(fieldMap: unknown): Promise<{ result: ExtractResult; url: string }> {
    server = await startHttpServer((request, response) => {
      if (request.method === 'POST') {
        response.writeHead(202, {
          'operation-location': `${server!.url}/formrecognizer/documentModels/prebuilt-invoice/analyzeResults/op-1?api-version=2023-07-31`,
        });
        return void response.end();
      }
      sendJson(response, 200, ANSWER);
    });
    const system = await createSystem(
      azureDiKind,
      'azure',
      {
        endpoint: server.url,
        apiKeyEnv: 'TEST_AZURE_KEY',
        apiVersion: '2023-07-31',
        extractModel: 'prebuilt-invoice',
        fieldMap,
      },
      makeContext('azure', { TEST_AZURE_KEY: 'azure-key-0123456789' }, ['TEST_AZURE_KEY']),
    );
    const outcome = await system.call(makeCall(await ONE_PAGE, 'application/pdf', extractRequest(SCHEMA)));
    await system.close();
    if (!outcome.ok) throw outcome.error;
    return { result: outcome.result as ExtractResult, url: server.requests[0]!.url };
  }

  it('fills the array item by item, each property by name, title or description, typed by the schema', async () => {
    const { result, url } = await extract({ total: 'InvoiceTotal', line_items: 'Items' });
    expect(url).toBe('/formrecognizer/documentModels/prebuilt-invoice:analyze?api-version=2023-07-31');
    // invoice_date is not in the map: matched by name (InvoiceDate), as an ISO date.
    expect(result.data).toEqual({ total: 110, invoice_date: '2019-11-15', line_items: EXPECTED_ITEMS });
    // Per field: total 80, line_items mean(70, 90) = 80, invoice_date 90 → 83.33.
    expect(result).toMatchObject({ confidence: 83.33, confidenceScale: '0-1' });
  });

  it('takes the item properties the nested map names, and matches the others by name', async () => {
    const { result } = await extract({
      line_items: { from: 'Items', items: { description: 'Date', amount: 'UnitPrice' } },
    });
    // The map wins over the names (a date field read into a text property comes as its ISO date); `shipped`
    // would match Date by its description, but the map has given Date to another property.
    expect((result.data.line_items as unknown[])[1]).toEqual({ description: '2021-03-05', quantity: 3, amount: 10 });
  });

  it('refuses a nested map without the field it comes from, naming the key', () => {
    expect(() =>
      parseKindOptions(
        azureDiKind,
        {
          endpoint: 'https://x.cognitiveservices.azure.com',
          extractModel: 'prebuilt-invoice',
          fieldMap: { line_items: { items: { amount: 'Amount' } } },
        },
        'systems.azure',
      ),
    ).toThrow(/systems\.azure\.fieldMap\.line_items\.from: is required/);
  });
});

describe('google-docai: line_item entities into an array of objects', () => {
  const money = (units: string, nanos?: number) => ({
    moneyValue: { currencyCode: 'USD', units, ...(nanos ? { nanos } : {}) },
    text: `${units} USD`,
  });
  const property = (type: string, mentionText: string, confidence: number, normalizedValue?: unknown) => ({
    type,
    mentionText,
    confidence,
    ...(normalizedValue ? { normalizedValue } : {}),
  });
  const lineItem = (
    description: string,
    quantity: string,
    unitPrice: string,
    amount: string,
    shipped: { year: number; month: number; day: number },
    confidence: number,
  ) => ({
    type: 'line_item',
    mentionText: `${description} ${quantity} ${unitPrice} ${amount}`,
    confidence,
    properties: [
      property('line_item/description', description, 0.95),
      property('line_item/quantity', quantity, 0.9),
      property('line_item/unit_price', `$${unitPrice}`, 0.9, money(unitPrice)),
      property('line_item/amount', `$${amount}`, 0.9, money(amount)),
      property('line_item/date', `${shipped.month}/${shipped.day}/${shipped.year}`, 0.8, {
        dateValue: shipped,
        text: '',
      }),
    ],
  });
  const DOCUMENT = {
    document: {
      mimeType: 'application/pdf',
      text: 'INVOICE',
      pages: [{ pageNumber: 1, dimension: { width: 1700, height: 2200, unit: 'pixels' } }],
      entities: [
        {
          type: 'invoice_date',
          mentionText: 'Nov 15, 2019',
          confidence: 0.9,
          normalizedValue: { dateValue: { year: 2019, month: 11, day: 15 }, text: '2019-11-15' },
        },
        { type: 'total_amount', mentionText: '$110.00', confidence: 0.8, normalizedValue: money('110') },
        lineItem('Consulting Services', '2', '30', '60', { year: 2021, month: 3, day: 4 }, 0.7),
        lineItem('Document Fee', '3', '10', '30', { year: 2021, month: 3, day: 5 }, 0.9),
      ],
    },
  };

  it('fills the array from one entity per line item, properties matched by the part of their type after the slash', async () => {
    server = await startHttpServer((_request, response) => sendJson(response, 200, DOCUMENT));
    const system = await createSystem(
      googleDocAiKind,
      'docai',
      {
        processor: 'projects/demo/locations/eu/processors/abc123',
        endpoint: server.url,
        accessTokenEnv: 'TEST_TOKEN',
        entityMap: {
          total: 'total_amount',
          line_items: { from: 'line_item', items: { price: 'line_item/unit_price', shipped: 'line_item/date' } },
        },
      },
      makeContext('docai', { TEST_TOKEN: 'ya29.token-0123456789' }, ['TEST_TOKEN']),
    );
    const outcome = await system.call(makeCall(await ONE_PAGE, 'application/pdf', extractRequest(SCHEMA)));
    await system.close();
    if (!outcome.ok) throw outcome.error;
    const result = outcome.result as ExtractResult;
    expect(result.data).toEqual({ total: 110, invoice_date: '2019-11-15', line_items: EXPECTED_ITEMS });
    // total 80, line_items mean(70, 90) = 80, invoice_date 90 → 83.33.
    expect(result).toMatchObject({ confidence: 83.33, confidenceScale: '0-1' });
  });
});
