/**
 * Amazon S3 + CloudFront: the CloudFront Function is loaded from its generated source as
 * plain JavaScript and called with CloudFront-shaped events (cloudfront-js-2.0 event structure);
 * the deploy script runs for real with bash, against a recording `aws` on PATH.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import { parse } from 'acorn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUDFRONT_FUNCTION_MAX_BYTES, renderCloudfrontFunction } from '../../scripts/hosts/cloudfront-function.ts';
import { hostRules } from '../../scripts/hosts/rules.ts';
import { renderS3DeployScript } from '../../scripts/hosts/s3-deploy.ts';
import { TYPED_FILES } from '../servers/http-contract-routes.ts';

type Headers = Record<string, { value: string }>;
interface CfRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string; multiValue?: { value: string }[] }>;
  headers: Headers;
  cookies: Record<string, never>;
}
interface CfResponse {
  statusCode: number;
  statusDescription?: string;
  headers: Headers;
  body?: { encoding: string; data: string };
}

const source = renderCloudfrontFunction(hostRules);
/** A fresh context per load: nothing but what the CloudFront runtime offers (no require, no process). */
const handler = vm.runInNewContext(`${source}\n;handler`, Object.create(null)) as (
  event: unknown,
) => CfRequest | CfResponse;

function viewerRequest(method: string, uri: string, querystring: CfRequest['querystring'] = {}) {
  return {
    version: '1.0',
    context: {
      distributionDomainName: 'd111111abcdef8.cloudfront.net',
      distributionId: 'EDFDVBD6EXAMPLE',
      eventType: 'viewer-request',
      requestId: 'req-1',
    },
    viewer: { ip: '198.51.100.11' },
    request: {
      method,
      uri,
      querystring,
      headers: { host: { value: 'journal.example.org' }, accept: { value: '*/*' } },
      cookies: {},
    },
  };
}

function viewerResponse(uri: string, statusCode = 200) {
  return {
    ...viewerRequest('GET', uri),
    context: { distributionId: 'EDFDVBD6EXAMPLE', eventType: 'viewer-response', requestId: 'req-2' },
    response: {
      statusCode,
      statusDescription: 'OK',
      headers: { 'content-type': { value: 'binary/octet-stream' }, vary: { value: 'Accept-Encoding' } },
      cookies: {},
    },
  };
}

describe('the CloudFront Function', () => {
  it("fits CloudFront's size limit and parses as ECMAScript 5.1, which every CloudFront runtime accepts", () => {
    expect(Buffer.byteLength(source)).toBeLessThanOrEqual(CLOUDFRONT_FUNCTION_MAX_BYTES);
    expect(() => parse(source, { ecmaVersion: 5, sourceType: 'script' })).not.toThrow();
    // The parser does refuse newer syntax (the check can fail).
    expect(() => parse(`${source}\nconst late = () => 1;`, { ecmaVersion: 5, sourceType: 'script' })).toThrow();
  });

  it('rewrites /api/<list>/ to its index.json and passes index.json through', () => {
    for (const list of ['authors', 'volumes', 'manuscripts']) {
      const request = handler(viewerRequest('GET', `/api/${list}/`, { format: { value: 'api' } })) as CfRequest;
      expect(request.uri).toBe(`/api/${list}/index.json`);
      expect(request.querystring).toEqual({ format: { value: 'api' } });
      expect((handler(viewerRequest('HEAD', `/api/${list}/index.json`)) as CfRequest).uri).toBe(
        `/api/${list}/index.json`,
      );
    }
  });

  it('moves /api/<list> to /api/<list>/ with 301, keeping the query (repeated keys too)', () => {
    const response = handler(
      viewerRequest('GET', '/api/volumes', {
        format: { value: 'api' },
        page: { value: '1', multiValue: [{ value: '1' }, { value: '2' }] },
      }),
    ) as CfResponse;
    expect(response.statusCode).toBe(301);
    expect(response.headers['location']).toEqual({ value: '/api/volumes/?format=api&page=1&page=2' });
    expect((handler(viewerRequest('GET', '/api/volumes')) as CfResponse).headers['location']).toEqual({
      value: '/api/volumes/',
    });
  });

  it('answers every other method with 405 and Allow: GET, anywhere', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const uri of ['/api/authors/', '/media/pdfs/a.pdf', '/nothing']) {
        const response = handler(viewerRequest(method, uri)) as CfResponse;
        expect(response.statusCode).toBe(405);
        expect(response.headers['allow']).toEqual({ value: 'GET' });
        expect(JSON.parse(response.body!.data)).toEqual({ detail: `Method "${method}" not allowed.` });
      }
    }
  });

  it("answers a page's URL with its .html file, as S3 stores it (docs/indexing.md)", () => {
    const request = handler(viewerRequest('GET', '/manuscripts/7', { utm_source: { value: 'scholar' } })) as CfRequest;
    expect(request.uri).toBe('/manuscripts/7.html');
    expect(request.querystring).toEqual({ utm_source: { value: 'scholar' } });
    expect((handler(viewerRequest('HEAD', '/volumes/5')) as CfRequest).uri).toBe('/volumes/5.html');
  });

  it("moves a page's .html and slash spellings (the slash URL pages had as folders) to its URL with 301, keeping the query", () => {
    for (const uri of ['/manuscripts/7.html', '/manuscripts/7/', '/volumes/5/']) {
      const response = handler(viewerRequest('GET', uri, { utm_source: { value: 'scholar' } })) as CfResponse;
      expect(response.statusCode, uri).toBe(301);
      expect(response.headers['location'], uri).toEqual({
        value: `${uri.replace(/(\.html|\/)$/, '')}?utm_source=scholar`,
      });
    }
  });

  it('leaves other paths alone', () => {
    for (const uri of [
      '/',
      '/404.html',
      '/api/no-such-list/',
      '/api/authors/x/y',
      '/api/openapi.json',
      '/manuscripts',
      '/manuscripts/',
      '/manuscripts/7/x',
      '/media/volumes/pdfs/2021/v.pdf',
    ]) {
      expect((handler(viewerRequest('GET', uri)) as CfRequest).uri).toBe(uri);
    }
  });

  it('sets exactly the contract headers on list responses, and the media headers on PDFs', () => {
    for (const uri of ['/api/authors/index.json', '/api/authors/']) {
      const response = handler(viewerResponse(uri)) as CfResponse;
      expect(response.headers).toEqual({
        'content-type': { value: 'application/json' },
        allow: { value: 'GET' },
        vary: { value: 'Accept, Accept-Encoding' },
        'access-control-allow-origin': { value: '*' },
        'x-content-type-options': { value: 'nosniff' },
        'cache-control': { value: 'public, max-age=300' },
      });
    }
    const pdf = handler(viewerResponse('/media/pdfs/a.pdf')) as CfResponse;
    expect(pdf.headers['cache-control']).toEqual({ value: 'public, max-age=86400' });
    expect(pdf.headers['content-type']).toEqual({ value: 'binary/octet-stream' });
    const other = handler(viewerResponse('/404.html', 404)) as CfResponse;
    expect(other.headers['allow']).toBeUndefined();
  });
});

describe("the CloudFront Function: a record's detail, the API root and the sections", () => {
  it("rewrites a record's slash path to its file, passes the file through, and moves the path without the slash", () => {
    for (const [uri, file] of [
      ['/api/manuscripts/7/', '/api/manuscripts/7.json'],
      ['/api/authors/ana.petrovska/', '/api/authors/ana.petrovska.json'],
      ['/api/volumes/2.json', '/api/volumes/2.json'],
      ['/api/', '/api/index.json'],
      ['/api/index.json', '/api/index.json'],
      ['/api/sections/', '/api/sections/index.json'],
    ] as const) {
      expect((handler(viewerRequest('GET', uri)) as CfRequest).uri, uri).toBe(file);
    }
    for (const [uri, to] of [
      ['/api/manuscripts/7', '/api/manuscripts/7/?format=api'],
      ['/api', '/api/?format=api'],
      ['/api/sections', '/api/sections/?format=api'],
    ] as const) {
      const response = handler(viewerRequest('GET', uri, { format: { value: 'api' } })) as CfResponse;
      expect(response.statusCode, uri).toBe(301);
      expect(response.headers['location']).toEqual({ value: to });
    }
  });

  it("sets the lists' headers on a record that exists, and leaves S3's error for one that does not", () => {
    for (const uri of ['/api/manuscripts/7.json', '/api/index.json', '/api/sections/index.json']) {
      const response = handler(viewerResponse(uri)) as CfResponse;
      expect(response.headers['content-type'], uri).toEqual({ value: 'application/json' });
      expect(response.headers['allow'], uri).toEqual({ value: 'GET' });
    }
    const missing = handler(viewerResponse('/api/manuscripts/999.json', 404)) as CfResponse;
    expect(missing.headers['content-type']).toEqual({ value: 'binary/octet-stream' });
    expect(missing.headers['allow']).toBeUndefined();
  });

  it('types the citations, the feed and the OpenAPI description, and lets a page on another origin read them, as it reads the API', () => {
    for (const { file, type } of TYPED_FILES) {
      expect((handler(viewerResponse(`/${file}`)) as CfResponse).headers, file).toEqual({
        'content-type': { value: type },
        'access-control-allow-origin': { value: '*' },
        'x-content-type-options': { value: 'nosniff' },
        vary: { value: 'Accept-Encoding' },
      });
    }
  });
});

describe('the S3 deploy script', () => {
  let root: string;
  const run = promisify(execFile);

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'journal-s3-'));
    // A recording stand-in for the AWS CLI: the script is ours, the CLI is not.
    await mkdir(path.join(root, 'bin'));
    await writeFile(path.join(root, 'bin/aws'), '#!/usr/bin/env bash\nprintf "%s\\n" "$*" >> "$AWS_LOG"\n');
    await chmod(path.join(root, 'bin/aws'), 0o755);
    await writeFile(path.join(root, 'deploy-s3.sh'), renderS3DeployScript(hostRules));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const deploy = (env: Record<string, string>) =>
    run('bash', [path.join(root, 'deploy-s3.sh'), 'site'], {
      cwd: root,
      env: { PATH: `${path.join(root, 'bin')}:${process.env['PATH']}`, AWS_LOG: path.join(root, 'aws.log'), ...env },
    });

  it('uploads the lists as exactly application/json and the PDFs as application/pdf, and nothing of other hosts', async () => {
    await rm(path.join(root, 'aws.log'), { force: true });
    await deploy({ JOURNAL_BUCKET: 'journal-bucket', CLOUDFRONT_DISTRIBUTION_ID: 'E123' });
    const calls = (await readFile(path.join(root, 'aws.log'), 'utf8')).trim().split('\n');
    expect(calls).toContain(
      's3 sync site/api s3://journal-bucket/api --delete --exclude * --include *.json --content-type application/json --cache-control public, max-age=300',
    );
    expect(calls).toContain(
      's3 sync site/media s3://journal-bucket/media --delete --exclude * --include *.pdf --content-type application/pdf --cache-control public, max-age=86400',
    );
    expect(calls).toContain(
      's3 sync site s3://journal-bucket --delete --exclude api/* --exclude media/* --exclude *.gz --exclude *.br --exclude _headers --exclude _redirects --exclude .htaccess',
    );
    expect(calls.at(-1)).toBe('cloudfront create-invalidation --distribution-id E123 --paths /*');
  });

  it('refuses to run without a bucket', async () => {
    await expect(deploy({})).rejects.toMatchObject({ stderr: expect.stringContaining('set JOURNAL_BUCKET') });
  });
});
