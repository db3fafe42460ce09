// Seller feeds over real HTTP against the local runtime (DynamoDB Local, fauxqs, the S3 notification
// and the recovery sweep): the four upload modes, both templates round-tripped, row-level errors,
// unreadable files, retry, delete, size limits, roles and ownership.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { inject, describe, expect, it } from 'vitest';
import { FeedEntity, NO_LEASE, type FeedItem } from '../../shared/data/feeds.ts';
import { expectError } from '../support/assertions.ts';
import { FEED_STALL_MS, generatedCsv, registerUnlimited, uploadCsv, uploadMultipart, waitForFeed } from '../support/catalog.ts';
import { registerAgent } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();

const HEADER = 'sku,title,price,currency,available_quantity';

describe('feed templates', () => {
  it('answers the CSV template in the envelope, or as a raw file for Accept: text/csv; uploaded unchanged it completes', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const envelope = await client.get('/v1/seller/templates/csv', { apiKey: seller.apiKey });
    expect(envelope.status).toBe(200);
    const template = envelope.json.data;
    expect(template).toMatchObject({ format: 'csv', filename: expect.stringMatching(/\.csv$/) });
    const names = template.fields.map((field: { name: string }) => field.name);
    expect(names).toEqual(expect.arrayContaining(['sku', 'title', 'price', 'currency', 'available_quantity', 'image_urls', 'attributes', 'floor_price', 'negotiation_strategy', 'status']));
    expect(template.fields.find((field: { name: string }) => field.name === 'negotiation_strategy')).toMatchObject({ type: 'enum', default: 'linear', example: 'boulware', description: expect.stringContaining('boulware') });
    for (const field of template.fields) expect(Object.keys(field).sort()).toEqual(['default', 'description', 'example', 'name', 'required', 'type']);
    expect(template.fields.filter((field: { required: boolean }) => field.required).map((field: { name: string }) => field.name).sort()).toEqual(
      ['available_quantity', 'currency', 'price', 'sku', 'title'],
    );

    const raw = await client.get('/v1/seller/templates/csv', { apiKey: seller.apiKey, headers: { accept: 'text/csv' } });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toMatch(/^text\/csv/);
    expect(raw.headers['content-disposition']).toContain('attachment');
    expect(raw.text).toBe(template.content);

    const uploaded = await uploadCsv(client, seller.apiKey, raw.text);
    expect(uploaded.status).toBe(202);
    const feed = await waitForFeed(client, seller.apiKey, uploaded.json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 2, rowsSucceeded: 2, rowsFailed: 0, errors: [], warnings: [], attempts: 1 });
  });

  it('answers the JSON template in the envelope, or raw for Accept: application/json; uploaded unchanged it completes', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const envelope = await client.get('/v1/seller/templates/json', { apiKey: seller.apiKey });
    expect(envelope.json.data).toMatchObject({ format: 'json', filename: expect.stringMatching(/\.json$/) });
    const raw = await client.get('/v1/seller/templates/json', { apiKey: seller.apiKey, headers: { accept: 'application/json' } });
    expect(raw.headers['content-type']).toMatch(/^application\/json/);
    expect(raw.json).toEqual(JSON.parse(envelope.json.data.content));
    expect(raw.json.products[0].price).toEqual({ amount: 1250, currency: 'USD' });

    const uploaded = await client.send('POST', '/v1/seller/feeds', { apiKey: seller.apiKey, body: raw.text, headers: { 'content-type': 'application/json' } });
    expect(uploaded.status).toBe(202);
    expect(uploaded.json.data).toMatchObject({ format: 'json', status: 'queued' });
    const feed = await waitForFeed(client, seller.apiKey, uploaded.json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 2, rowsSucceeded: 2 });
  });
});

describe('upload modes', () => {
  it('takes a multipart file part (format from the file name) and records its filename', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const response = await uploadMultipart(client, seller.apiKey, { name: 'spring.csv', content: `${HEADER}\nMP-1,Multipart product,3.50,EUR,10\n` });
    expect(response.status).toBe(202);
    expect(response.json.data).toMatchObject({ format: 'csv', filename: 'spring.csv', status: 'queued', sellerId: seller.agentId, sizeBytes: expect.any(Number) });
    const feed = await waitForFeed(client, seller.apiKey, response.json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsSucceeded: 1 });

    const json = await uploadMultipart(client, seller.apiKey, { name: 'upload.bin', type: 'application/octet-stream', content: JSON.stringify({ products: [{ sku: 'MP-2', title: 'JSON part', price: { amount: 100, currency: 'USD' }, availableQuantity: 1 }] }) }, { format: 'json' });
    expect(json.json.data.format).toBe('json');
    expect((await waitForFeed(client, seller.apiKey, json.json.data.feedId)).status).toBe('completed');
  });

  it('refuses a multipart body without a file part, with unknown fields, or of another content type', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const boundary = 'b0undary';
    const noFile = await client.send('POST', '/v1/seller/feeds', {
      apiKey: seller.apiKey,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\ncsv\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expectError(noFile, 422, 'validation/invalid');
    expect(noFile.json.details).toEqual([{ path: 'file', message: expect.any(String) }]);
    const extra = await uploadMultipart(client, seller.apiKey, { name: 'a.csv', content: `${HEADER}\nX,Y,1,USD,1\n` }, { colour: 'blue' });
    expectError(extra, 422, 'validation/invalid');
    expect(extra.json.details[0].path).toBe('colour');
    const xml = await client.send('POST', '/v1/seller/feeds', { apiKey: seller.apiKey, body: '<feed/>', headers: { 'content-type': 'application/xml' } });
    expectError(xml, 422, 'validation/invalid');
    expect(xml.json.error).toContain('text/csv');
    expectError(await client.post('/v1/seller/feeds', { products: [] }, { apiKey: seller.apiKey }), 422, 'validation/invalid');
    expectError(await client.post('/v1/seller/feeds', { format: 'xml', upload: 'presigned' }, { apiKey: seller.apiKey }), 422, 'validation/invalid');
    expectError(await client.send('POST', '/v1/seller/feeds', { apiKey: seller.apiKey }), 422, 'validation/invalid');
  });

  it('answers a presigned request with awaiting_upload and a PUT URL; a 2,000-row file completes', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const requested = await client.post('/v1/seller/feeds', { format: 'csv', upload: 'presigned', filename: 'big.csv' }, { apiKey: seller.apiKey });
    expect(requested.status).toBe(202);
    const feed = requested.json.data;
    expect(feed).toMatchObject({ status: 'awaiting_upload', format: 'csv', filename: 'big.csv', uploadMethod: 'PUT', uploadMaxBytes: 100 * 1024 * 1024 });
    expect(Date.parse(feed.uploadExpiresAt) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(Date.parse(feed.uploadExpiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    const pending = await client.get(`/v1/seller/feeds/${feed.feedId}`, { apiKey: seller.apiKey });
    expect(pending.json.data.status).toBe('awaiting_upload');
    expect(pending.json.data.uploadUrl).toBeUndefined();

    const put = await fetch(feed.uploadUrl, { method: 'PUT', body: generatedCsv(2000, 'PRE'), headers: feed.uploadHeaders });
    expect(put.status).toBe(200);
    const done = await waitForFeed(client, seller.apiKey, feed.feedId);
    expect(done).toMatchObject({ status: 'completed', rowsTotal: 2000, rowsSucceeded: 2000, rowsFailed: 0, sizeBytes: expect.any(Number) });
    const bySku = await client.get('/v1/seller/products?sku=PRE-2000', { apiKey: seller.apiKey });
    expect(bySku.json.data.items[0]).toMatchObject({ sku: 'PRE-2000', availableQuantity: 6000, sourceFeedId: feed.feedId });
    // A slow machine may take minutes over the file: waitForFeed fails when the feed stops making
    // progress, and the test allows a stall window for its start and each of its 4 checkpoints.
  }, 5 * FEED_STALL_MS);

  it('refuses an inline body over 5 MiB with 413 and says how to send larger files', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const body = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    const tooLarge = await uploadCsv(client, seller.apiKey, body);
    expectError(tooLarge, 413, 'validation/too-large');
    for (const step of ['5 MiB', 'presigned upload', 'POST /v1/seller/feeds with {"format":"csv","upload":"presigned"}', 'PUT the file', 'uploadUrl', '100 MiB']) {
      expect(tooLarge.json.error).toContain(step);
    }
    const multipart = await uploadMultipart(client, seller.apiKey, { name: 'big.csv', content: 'a'.repeat(5 * 1024 * 1024 + 1) });
    expectError(multipart, 413, 'validation/too-large');
    expect(multipart.json.error).toBe(tooLarge.json.error);
    const retry = await client.send('POST', '/v1/seller/feeds/feed_01JF3Q5Z8X2C7V9B4N6M1K0PQR/retry', { apiKey: seller.apiKey, body, headers: { 'content-type': 'text/csv' } });
    expectError(retry, 413, 'validation/too-large');
    expect(retry.json.error).toContain('POST /v1/seller/feeds/feed_01JF3Q5Z8X2C7V9B4N6M1K0PQR/retry with {"format":"csv","upload":"presigned"}');
    const exact = Buffer.concat([Buffer.from(`${HEADER}\nBIG-1,Big file product,1.00,USD,1\n`), Buffer.alloc(5 * 1024 * 1024 - 60, ' ')]);
    expect((await uploadCsv(client, seller.apiKey, exact.subarray(0, 5 * 1024 * 1024))).status).toBe(202);
  });
});

describe('file names', () => {
  const csv = `${HEADER}\nFN-1,Named file product,1.00,USD,1\n`;
  const withDisposition = (apiKey: string, disposition: string, query = '') =>
    client.send('POST', `/v1/seller/feeds${query}`, { apiKey, body: csv, headers: { 'content-type': 'text/csv', 'content-disposition': disposition } });
  /** A header value carrying these UTF-8 bytes as they are (HTTP headers travel as bytes; Node writes a string's characters as Latin-1). */
  const rawUtf8 = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

  it('takes the name from Content-Disposition: filename*=UTF-8 percent-escapes over filename, raw UTF-8 or Latin-1 in filename', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const cases: [string, string][] = [
      ['attachment; filename="plain.csv"', 'plain.csv'],
      ["attachment; filename*=UTF-8''gr%C3%B6%C3%9Fe%20liste.csv", 'größe liste.csv'],
      ["attachment; filename=\"fallback.csv\"; filename*=UTF-8''%E7%9B%AE%E9%8C%B2.csv", '目録.csv'],
      ["attachment; filename*=UTF-8''first.csv; filename=\"second.csv\"", 'first.csv'],
      [rawUtf8('attachment; filename="größe.csv"'), 'größe.csv'],
      ['attachment; filename="gr\u00f6\u00dfe.csv"', 'größe.csv'], // Latin-1 bytes: ö is 0xF6
      ["attachment; filename*=UTF-8''literal%EF%BF%BD.csv", 'literal\uFFFD.csv'],
    ];
    for (const [disposition, filename] of cases) {
      const response = await withDisposition(seller.apiKey, disposition);
      expect(response.status, `${disposition}: ${response.text}`).toBe(202);
      expect(response.json.data.filename).toBe(filename);
    }
  });

  it.each([
    ['a broken percent-escape', "attachment; filename*=UTF-8''bad%ZZname.csv"],
    ['a truncated percent-escape', "attachment; filename*=UTF-8''bad%E"],
    ['percent-escapes that are not UTF-8', "attachment; filename*=UTF-8''caf%E9.csv"],
    ['an encoded lone surrogate', "attachment; filename*=UTF-8''x%ED%A0%80.csv"],
    ['an unknown charset', "attachment; filename*=KOI8-R''%F0%D2.csv"],
    ['a bidirectional override', "attachment; filename*=UTF-8''report%E2%80%AEvsc.exe"],
    ['a path', 'attachment; filename="../../etc/passwd"'],
  ])('refuses a Content-Disposition file name with %s: 422 on filename, nothing stored', async (_name, disposition) => {
    const seller = await registerUnlimited(client, 'seller');
    const response = await withDisposition(seller.apiKey, disposition);
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details).toEqual([{ path: 'filename', message: expect.any(String) }]);
    expect(response.json.error).toContain('filename');
    expect((await client.get('/v1/seller/feeds', { apiKey: seller.apiKey })).json.data.items).toEqual([]);
  });

  it.each([
    ['invalid UTF-8', '?filename=caf%E9.csv', /UTF-8/],
    ['a lone byte', '?filename=%FF.csv', /UTF-8/],
    ['a broken percent-escape', '?filename=100%.csv', /percent-encoded/],
    ['an encoded lone surrogate', '?filename=%ED%B0%80.csv', /UTF-8/],
    ['a bidirectional override', '?filename=report%E2%80%AEvsc.exe', /bidirectional/],
  ])('refuses ?filename= with %s (never stored as U+FFFD)', async (_name, query, message) => {
    const seller = await registerUnlimited(client, 'seller');
    const response = await client.send('POST', `/v1/seller/feeds${query}`, { apiKey: seller.apiKey, body: csv, headers: { 'content-type': 'text/csv' } });
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details).toEqual([{ path: 'filename', message: expect.stringMatching(message) }]);
    expect((await client.get('/v1/seller/feeds', { apiKey: seller.apiKey })).json.data.items).toEqual([]);
  });

  it('takes ?filename= in percent-encoded UTF-8, a literal U+FFFD included', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const named = await client.send('POST', `/v1/seller/feeds?filename=${encodeURIComponent('größe \uFFFD.csv')}`, { apiKey: seller.apiKey, body: csv, headers: { 'content-type': 'text/csv' } });
    expect(named.status, named.text).toBe(202);
    expect(named.json.data.filename).toBe('größe \uFFFD.csv');
  });

  it('refuses a lone surrogate or a bidirectional override in the JSON body’s filename', async () => {
    const seller = await registerUnlimited(client, 'seller');
    for (const filename of ['x\ud800.csv', 'report\u202Evsc.exe']) {
      for (const body of [{ format: 'csv', upload: 'presigned', filename }, { products: [{ sku: 'FN-J' }], filename }]) {
        const response = await client.post('/v1/seller/feeds', body, { apiKey: seller.apiKey });
        expectError(response, 422, 'validation/invalid');
        expect(response.json.details).toEqual([{ path: 'filename', message: expect.any(String) }]);
      }
    }
  });

  it('reads a multipart part’s file name as UTF-8, and refuses one that is not a plain file name', async () => {
    const seller = await registerUnlimited(client, 'seller');
    // The helper writes the part headers as UTF-8, as browsers and curl do.
    const named = await uploadMultipart(client, seller.apiKey, { name: 'größe.csv', content: csv });
    expect(named.status, named.text).toBe(202);
    expect(named.json.data.filename).toBe('größe.csv');
    for (const name of ['report\u202Evsc.csv', 'next-line\u0085.csv']) {
      const refused = await uploadMultipart(client, seller.apiKey, { name, content: csv });
      expectError(refused, 422, 'validation/invalid');
      expect(refused.json.details).toEqual([{ path: 'filename', message: expect.any(String) }]);
    }
    // filename* (which RFC 7578 forbids in multipart) with bytes that are not UTF-8.
    const boundary = 'b0undary';
    const extended = await client.send('POST', '/v1/seller/feeds', {
      apiKey: seller.apiKey,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''caf%E9.csv\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expectError(extended, 422, 'validation/invalid');
    expect(extended.json.details).toEqual([{ path: 'filename', message: expect.stringContaining('UTF-8') }]);
  });
});

describe('row validation', () => {
  it('reports each bad row with its row, column and a message, and applies the good rows', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const csv = [
      'SKU,Title,Price,Currency,Available Quantity,category,ships_from,image_urls,attributes,negotiable,lead_time_days,colour',
      'OK-1,Good row,12.50,USD,10,Safety/Gloves,de,https://cdn.example.com/a.jpg|https://cdn.example.com/b.jpg,material=nitrile;size=M;powderFree=true;thicknessMm=0.1,no,3,red',
      ',Missing sku,1.00,USD,1,,,,,,,',
      'BAD-PRICE,Too many decimals,1.234,USD,1,,,,,,,',
      'YEN-1,Yen has no minor unit,12.5,JPY,1,,,,,,,',
      'BAD-CUR,Unknown currency,1.00,XYZ,1,,,,,,,',
      'BAD-QTY,Quantity not a number,1.00,USD,ten,,,,,,,',
      'BAD-COUNTRY,Not a country,1.00,USD,1,,ZZ,,,,,',
      'BAD-URL,Not a URL,1.00,USD,1,,,notaurl,,,,',
      'BAD-ATTR,Attributes without =,1.00,USD,1,,,,material,,,',
      'BAD-BOOL,Negotiable maybe,1.00,USD,1,,,,,maybe,,',
      'SHORT,Too few cells,1.00',
      'BHD-1,Bahraini dinar has three,1.234,BHD,5,,,,,,,',
      'OK-1,Repeated sku wins,13.00,USD,20,,,,,,,',
    ].join('\n');
    const uploaded = await uploadCsv(client, seller.apiKey, csv);
    const feed = await waitForFeed(client, seller.apiKey, uploaded.json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 13, rowsSucceeded: 3, rowsFailed: 10 });
    const errorFor = (row: number) => feed.errors.filter((error: { row: number }) => error.row === row);
    expect(errorFor(2)).toEqual([{ row: 2, field: 'sku', message: expect.stringMatching(/required/i) }]);
    expect(errorFor(3)).toEqual([{ row: 3, field: 'price', message: expect.stringContaining('at most 2 decimal places for USD') }]);
    expect(errorFor(4)).toEqual([{ row: 4, field: 'price', message: expect.stringContaining('at most 0 decimal places for JPY') }]);
    expect(errorFor(5)).toEqual([{ row: 5, field: 'currency', message: expect.stringContaining('ISO 4217') }]);
    expect(errorFor(6)).toEqual([{ row: 6, field: 'available_quantity', message: expect.stringContaining('whole number') }]);
    expect(errorFor(7)).toEqual([{ row: 7, field: 'ships_from', message: expect.stringContaining('country code') }]);
    expect(errorFor(8)[0]).toMatchObject({ row: 8, field: 'image_urls' });
    expect(errorFor(9)).toEqual([{ row: 9, field: 'attributes', message: expect.stringContaining('key=value') }]);
    expect(errorFor(10)).toEqual([{ row: 10, field: 'negotiable', message: expect.stringContaining('true or false') }]);
    expect(errorFor(11)).toEqual([{ row: 11, field: null, message: expect.stringContaining('3 cells but the header has 12') }]);
    expect(feed.warnings).toEqual(
      expect.arrayContaining([
        { row: null, field: 'colour', message: expect.stringContaining('Unknown column') },
        { row: 13, field: 'sku', message: expect.stringContaining('row 1') },
      ]),
    );
    expect(feed.warnings.filter((warning: { field: string }) => warning.field === 'colour')).toHaveLength(1);

    const products = await client.get('/v1/seller/products', { apiKey: seller.apiKey });
    const bySku = Object.fromEntries(products.json.data.items.map((product: { sku: string }) => [product.sku, product]));
    expect(Object.keys(bySku).sort()).toEqual(['BHD-1', 'OK-1']);
    expect(bySku['OK-1']).toMatchObject({ title: 'Repeated sku wins', price: { amount: 1300, currency: 'USD' }, availableQuantity: 20, category: null });
    expect(bySku['BHD-1'].price).toEqual({ amount: 1234, currency: 'BHD' });
  });

  it('types CSV cells: lowercase categories, | image lists, key=value attributes, booleans, defaults', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const csv = [
      'sku,title,price,currency,available_quantity,category,ships_from,image_urls,attributes,negotiable,floor_price,auto_accept_price',
      'TYPED-1,Typed row,12.50,USD,10,Safety/Gloves,de,https://cdn.example.com/a.jpg| https://cdn.example.com/b.jpg,material=nitrile;size=M;powderFree=true;thicknessMm=0.1,no,10.00,12.00',
    ].join('\n');
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, csv)).json.data.feedId);
    expect(feed.status).toBe('completed');
    const [product] = (await client.get('/v1/seller/products?sku=TYPED-1', { apiKey: seller.apiKey })).json.data.items;
    expect(product).toMatchObject({
      category: 'safety/gloves',
      shipsFrom: 'DE',
      imageUrls: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'],
      attributes: { material: 'nitrile', size: 'M', powderFree: true, thicknessMm: 0.1 },
      unit: 'each',
      packSize: 1,
      minOrderQuantity: 1,
      leadTimeDays: 0,
      status: 'active',
      description: null,
      brand: null,
    });
    expect(product.offers[0]).toMatchObject({ negotiable: false, unitPrice: { amount: 1250, currency: 'USD' }, floorUnitPrice: { amount: 1000, currency: 'USD' }, autoAcceptUnitPrice: { amount: 1200, currency: 'USD' }, minQuantity: 1, status: 'active' });
  });

  it('reads pack_size and packSize: a box of 100 says so to its seller and to buyers', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const csv = ['sku,title,unit,pack_size,price,currency,available_quantity', 'BOX-100,Nitrile gloves box of 100,box,100,9.00,EUR,40', 'BOX-BAD,Bad pack,box,0,9.00,EUR,40'].join('\n');
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, csv)).json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsSucceeded: 1, rowsFailed: 1, errors: [{ row: 2, field: 'pack_size', message: expect.stringContaining('1 or more') }] });
    const [product] = (await client.get('/v1/seller/products?sku=BOX-100', { apiKey: seller.apiKey })).json.data.items;
    expect(product).toMatchObject({ unit: 'box', packSize: 100, price: { amount: 900, currency: 'EUR' } });
    const json = await client.post('/v1/seller/feeds', { products: [{ sku: 'PACK-24', title: 'AA batteries, pack of 24', unit: 'pack', packSize: 24, price: { amount: 600, currency: 'EUR' }, availableQuantity: 10 }] }, { apiKey: seller.apiKey });
    expect((await waitForFeed(client, seller.apiKey, json.json.data.feedId)).status).toBe('completed');
    expect((await client.get('/v1/seller/products?sku=PACK-24', { apiKey: seller.apiKey })).json.data.items[0]).toMatchObject({ unit: 'pack', packSize: 24 });
    const buyer = await registerUnlimited(client, 'buyer');
    const seen = (await client.get(`/v1/products/${product.productId}`, { apiKey: buyer.apiKey })).json.data;
    expect(seen).toMatchObject({ unit: 'box', packSize: 100 });
  });

  it('validates JSON rows with field paths and warns once per unknown field', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const products = [
      { sku: 'J-1', title: 'Fine', price: { amount: 500, currency: 'EUR' }, availableQuantity: 3, colour: 'red' },
      { sku: 'J-2', title: 'Cents as decimals', price: { amount: 5.5, currency: 'EUR' }, availableQuantity: 3, colour: 'blue' },
      { sku: 'J-3', title: 'Floor in another currency', price: { amount: 500, currency: 'EUR' }, availableQuantity: 3, floorUnitPrice: { amount: 100, currency: 'USD' } },
      'not an object',
    ];
    const uploaded = await client.post('/v1/seller/feeds', { products }, { apiKey: seller.apiKey });
    const feed = await waitForFeed(client, seller.apiKey, uploaded.json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 4, rowsSucceeded: 1, rowsFailed: 3 });
    expect(feed.errors).toEqual([
      { row: 2, field: 'price.amount', message: expect.stringContaining('whole number in EUR cents, not 5.5') },
      { row: 3, field: 'floorUnitPrice.currency', message: expect.stringContaining('EUR') },
      { row: 4, field: null, message: expect.stringContaining('object') },
    ]);
    expect(feed.warnings).toEqual([{ row: null, field: 'colour', message: expect.stringContaining('Unknown field') }]);
  });

  it('reports every bad cell of a CSV row and every problem of a JSON row, not only the first, and stores the negotiation strategy', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const csv = [
      'sku,title,price,currency,available_quantity,ships_from,negotiable,floor_price,auto_accept_price,negotiation_strategy',
      'BAD CELLS,,1.234,USD,ten,ZZ,maybe,9.00,8.00,stubborn',
      'NO-FLOOR,Conceder without a floor,10.00,USD,5,,,,,conceder',
      'GOOD-1,Boulware,10.00,USD,5,DE,,8.00,9.50,Boulware',
    ].join('\n');
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, csv)).json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 3, rowsSucceeded: 1, rowsFailed: 2 });
    expect(feed.errors).toEqual([
      { row: 1, field: 'sku', message: expect.stringContaining('without spaces') },
      { row: 1, field: 'title', message: expect.stringMatching(/required/i) },
      { row: 1, field: 'price', message: expect.stringContaining('at most 2 decimal places') },
      { row: 1, field: 'available_quantity', message: expect.stringContaining('whole number') },
      { row: 1, field: 'ships_from', message: expect.stringContaining('country code') },
      { row: 1, field: 'negotiable', message: expect.stringContaining('true or false') },
      { row: 1, field: 'floor_price', message: expect.stringContaining('auto-accept price') },
      { row: 1, field: 'negotiation_strategy', message: expect.stringContaining('firm, linear, boulware or conceder') },
      { row: 2, field: 'negotiation_strategy', message: expect.stringContaining('floor price') },
    ]);
    const [product] = (await client.get('/v1/seller/products?sku=GOOD-1', { apiKey: seller.apiKey })).json.data.items;
    expect(product.offers[0]).toMatchObject({ negotiationStrategy: 'boulware', floorUnitPrice: { amount: 800, currency: 'USD' }, autoAcceptUnitPrice: { amount: 950, currency: 'USD' } });

    const json = await client.post('/v1/seller/feeds', { products: [
      { sku: 'J BAD', title: '', price: { amount: 5.5, currency: 'USD' }, availableQuantity: -1, floorUnitPrice: { amount: 400, currency: 'EUR' }, negotiationStrategy: 'Linear' },
      { sku: 'J-OK', title: 'Fine', price: { amount: 1000, currency: 'USD' }, availableQuantity: 3, floorUnitPrice: { amount: 800, currency: 'USD' } },
    ] }, { apiKey: seller.apiKey });
    const jsonFeed = await waitForFeed(client, seller.apiKey, json.json.data.feedId);
    expect(jsonFeed.errors.map((error: { field: string }) => error.field)).toEqual(['sku', 'title', 'price.amount', 'availableQuantity', 'floorUnitPrice.currency', 'negotiationStrategy']);
    // A floor without a strategy answers with the default, linear.
    const [defaulted] = (await client.get('/v1/seller/products?sku=J-OK', { apiKey: seller.apiKey })).json.data.items;
    expect(defaulted.offers[0].negotiationStrategy).toBe('linear');
  });

  it('reports a CSV row over 1 MiB and cells that are not UTF-8, and applies the rows around them', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const requested = await client.post('/v1/seller/feeds', { format: 'csv', upload: 'presigned' }, { apiKey: seller.apiKey });
    const longDescription = `"${'Text, with ""quotes"" and\nline breaks. '.repeat(30_000)}"`;
    const file = Buffer.concat([
      Buffer.from('sku,title,description,price,currency,available_quantity\n'),
      Buffer.from('BIG-0,Before,,1.00,USD,1\n'),
      Buffer.from(`BIG-1,Too long,${longDescription},1.00,USD,1\n`),
      Buffer.concat([Buffer.from('BIG-2,Caf'), Buffer.from([0xe9]), Buffer.from(',,1.00,'), Buffer.from([0xff]), Buffer.from(',1\n')]),
      Buffer.from('BIG-3,Literal \uFFFD is text,,1.00,USD,1\n'),
      Buffer.from('BIG-4,Spoofed \u202Etxt.exe,,1.00,USD,1\n'),
      Buffer.from('BIG-5,After,,1.00,USD,1\n'),
    ]);
    expect((await fetch(requested.json.data.uploadUrl, { method: 'PUT', body: file })).status).toBe(200);
    const feed = await waitForFeed(client, seller.apiKey, requested.json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 6, rowsSucceeded: 3, rowsFailed: 3 });
    expect(feed.errors).toEqual([
      { row: 2, field: null, message: expect.stringMatching(/^The row is [\d,]+ bytes; a row may have at most 1,048,576 bytes \(1 MiB\)/) },
      { row: 3, field: 'title', message: expect.stringContaining('not UTF-8') },
      { row: 3, field: 'currency', message: expect.stringContaining('not UTF-8') },
      { row: 5, field: 'title', message: expect.stringContaining('bidirectional control') },
    ]);
    const products = (await client.get('/v1/seller/products', { apiKey: seller.apiKey })).json.data.items;
    expect(products.map((product: { sku: string }) => product.sku).sort()).toEqual(['BIG-0', 'BIG-3', 'BIG-5']);
    expect(products.find((product: { sku: string }) => product.sku === 'BIG-3').title).toBe('Literal \uFFFD is text');
  });

  it('reports a JSON product over 1 MiB and applies the products around it', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const products = [
      { sku: 'JB-1', title: 'Before', price: { amount: 100, currency: 'USD' }, availableQuantity: 1 },
      { sku: 'JB-2', title: 'Too long', price: { amount: 100, currency: 'USD' }, availableQuantity: 1, notes: 'x'.repeat(1024 * 1024) },
      { sku: 'JB-3', title: 'After', price: { amount: 100, currency: 'USD' }, availableQuantity: 1 },
    ];
    const uploaded = await client.post('/v1/seller/feeds', { products }, { apiKey: seller.apiKey });
    expect(uploaded.status, uploaded.text).toBe(202);
    const feed = await waitForFeed(client, seller.apiKey, uploaded.json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 3, rowsSucceeded: 2, rowsFailed: 1 });
    expect(feed.errors).toEqual([{ row: 2, field: null, message: expect.stringMatching(/^The product is [\d,]+ bytes of JSON; a product may have at most 1,048,576 bytes \(1 MiB\)/) }]);
  });

  it('keeps the first 100 errors and counts all', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const lines = [HEADER, 'GOOD-1,Good,1.00,USD,1'];
    for (let i = 0; i < 150; i++) lines.push(`BAD-${i},Bad,1.00,USD,-1`);
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, lines.join('\n'))).json.data.feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsTotal: 151, rowsSucceeded: 1, rowsFailed: 150 });
    expect(feed.errors).toHaveLength(100);
    expect(feed.errors[0]).toEqual({ row: 2, field: 'available_quantity', message: expect.any(String) });
  });
});

describe('unreadable files, retry and delete', () => {
  it.each([
    ['a file without the required columns', `sku,cost\nA,1\n`, /lacks the required columns title, price, currency, available_quantity/],
    ['a file without a header row', `A-1,Gloves,1.00,USD,5\n`, /header row/],
    ['binary data', Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x0a]), /not a CSV|header row/],
    ['a header only', `${HEADER}\n`, /no product rows/],
    ['only invalid rows', `${HEADER}\nX,,1.00,USD,1\nY,,1.00,USD,1\n`, /All 2 rows are invalid/],
  ])('fails %s with a reason the seller can act on', async (_name, content, reason) => {
    const seller = await registerUnlimited(client, 'seller');
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, content)).json.data.feedId);
    expect(feed.status).toBe('failed');
    expect(feed.failureReason).toMatch(reason);
    expect(feed.completedAt).toEqual(expect.any(String));
  });

  it('fails broken JSON, and a retry with the corrected file completes', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const broken = await uploadMultipart(client, seller.apiKey, { name: 'feed.json', type: 'application/json', content: '{"products": [{"sku": "FIX-1", "title": ' });
    const failed = await waitForFeed(client, seller.apiKey, broken.json.data.feedId);
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('not valid JSON'), attempts: 1 });

    const fixed = JSON.stringify({ products: [{ sku: 'FIX-1', title: 'Fixed', price: { amount: 900, currency: 'USD' }, availableQuantity: 4 }] });
    const retried = await client.send('POST', `/v1/seller/feeds/${failed.feedId}/retry`, { apiKey: seller.apiKey, body: fixed, headers: { 'content-type': 'application/json' } });
    expect(retried.status).toBe(202);
    expect(retried.json.data).toMatchObject({ feedId: failed.feedId, status: 'queued', failureReason: null, rowsTotal: 0 });
    const done = await waitForFeed(client, seller.apiKey, failed.feedId);
    expect(done).toMatchObject({ status: 'completed', rowsSucceeded: 1, attempts: 2, failureReason: null });

    const again = await client.post(`/v1/seller/feeds/${failed.feedId}/retry`, undefined, { apiKey: seller.apiKey });
    expectError(again, 409, 'conflict');
    expect(again.json.details).toEqual([{ path: 'status', message: 'The feed is completed' }]);
  });

  it('fails JSON whose products are not an array, or that has content after the document', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const product = { sku: 'OBJ-1', title: 'Keyed', price: { amount: 100, currency: 'USD' }, availableQuantity: 1 };
    const keyed = await uploadMultipart(client, seller.apiKey, { name: 'feed.json', type: 'application/json', content: JSON.stringify({ products: { first: product } }) });
    expect(await waitForFeed(client, seller.apiKey, keyed.json.data.feedId)).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('products must be an array') });
    const trailing = await uploadMultipart(client, seller.apiKey, { name: 'feed.json', type: 'application/json', content: `${JSON.stringify({ products: [product] })} {"more": 1}` });
    expect(await waitForFeed(client, seller.apiKey, trailing.json.data.feedId)).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('not valid JSON') });
  });

  it('retries a failed feed from its stored file when no file is sent', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, `${HEADER}\n`)).json.data.feedId);
    expect(feed.status).toBe('failed');
    const retried = await client.post(`/v1/seller/feeds/${feed.feedId}/retry`, undefined, { apiKey: seller.apiKey });
    expect(retried.status).toBe(202);
    const again = await waitForFeed(client, seller.apiKey, feed.feedId);
    expect(again).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('deletes a finished feed and its stored files but keeps its products; refuses while queued or processing', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, `${HEADER}\nDEL-1,Kept product,1.00,USD,1\n`)).json.data.feedId);
    const s3 = new S3Client({ forcePathStyle: true });
    const bucket = inject('env').FEEDS_BUCKET_NAME as string;
    const files = () => s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `feeds/${seller.agentId}/${feed.feedId}/` }));
    expect((await files()).KeyCount).toBe(1);

    const deleted = await client.delete(`/v1/seller/feeds/${feed.feedId}`, { apiKey: seller.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.json.data).toEqual({ id: feed.feedId, deleted: true });
    expect((await files()).KeyCount ?? 0).toBe(0);
    expectError(await client.get(`/v1/seller/feeds/${feed.feedId}`, { apiKey: seller.apiKey }), 404, 'not-found');
    expect((await client.get('/v1/seller/products?sku=DEL-1', { apiKey: seller.apiKey })).json.data.items).toHaveLength(1);

    // A feed mid-run (written as the processor leaves it) cannot be deleted.
    const running = { ...feed, feedId: 'feed_01JF3Q5Z8X2C7V9B4N6M1K0PQR', status: 'processing', objectKey: 'feeds/x', leaseToken: NO_LEASE, leaseUntil: Date.now() + 60_000, checkpoint: null } as FeedItem;
    await FeedEntity.put(running, running);
    const refused = await client.delete(`/v1/seller/feeds/${running.feedId}`, { apiKey: seller.apiKey });
    expectError(refused, 409, 'conflict');
    expect(refused.json.details).toEqual([{ path: 'status', message: 'The feed is processing' }]);
    await FeedEntity.put({ ...running, status: 'queued' }, running);
    expectError(await client.delete(`/v1/seller/feeds/${running.feedId}`, { apiKey: seller.apiKey }), 409, 'conflict');
    await FeedEntity.delete(running);
  });
});

describe('feed lists, roles and ownership', () => {
  it('lists feeds newest first with cursors and ?status=', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const ids: string[] = [];
    for (const content of [`${HEADER}\nL-1,One,1.00,USD,1\n`, `${HEADER}\n`, `${HEADER}\nL-3,Three,1.00,USD,1\n`]) {
      const id = (await uploadCsv(client, seller.apiKey, content)).json.data.feedId;
      await waitForFeed(client, seller.apiKey, id);
      ids.push(id);
    }
    const first = await client.get('/v1/seller/feeds?limit=2', { apiKey: seller.apiKey });
    expect(first.json.data.items.map((feed: { feedId: string }) => feed.feedId)).toEqual([ids[2], ids[1]]);
    const second = await client.get(`/v1/seller/feeds?limit=2&cursor=${first.json.data.nextCursor}`, { apiKey: seller.apiKey });
    expect(second.json.data.items.map((feed: { feedId: string }) => feed.feedId)).toEqual([ids[0]]);
    expect(second.json.data.nextCursor).toBeNull();
    const failed = await client.get('/v1/seller/feeds?status=failed', { apiKey: seller.apiKey });
    expect(failed.json.data.items.map((feed: { feedId: string }) => feed.feedId)).toEqual([ids[1]]);
    expectError(await client.get('/v1/seller/feeds?status=done', { apiKey: seller.apiKey }), 422, 'validation/invalid');
  });

  it('gives buyers 403 on every seller route and another seller 404 on a feed', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const other = await registerUnlimited(client, 'seller');
    const buyer = await registerAgent(client, { role: 'buyer' });
    const feed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, `${HEADER}\n`)).json.data.feedId);
    const sellerRoutes: [string, string][] = [
      ['POST', '/v1/seller/feeds'],
      ['GET', '/v1/seller/feeds'],
      ['GET', `/v1/seller/feeds/${feed.feedId}`],
      ['POST', `/v1/seller/feeds/${feed.feedId}/retry`],
      ['DELETE', `/v1/seller/feeds/${feed.feedId}`],
      ['GET', '/v1/seller/templates/csv'],
      ['GET', '/v1/seller/templates/json'],
      ['GET', '/v1/seller/products'],
    ];
    for (const [method, path] of sellerRoutes) expectError(await client.send(method, path, { apiKey: buyer.apiKey }), 403, 'auth/forbidden');
    for (const [method, path] of sellerRoutes.filter(([, path]) => path.includes(feed.feedId))) {
      expectError(await client.send(method, path, { apiKey: other.apiKey }), 404, 'not-found');
    }
    expect((await client.get('/v1/seller/feeds', { apiKey: other.apiKey })).json.data.items).toEqual([]);
  });
});
