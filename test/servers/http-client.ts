/**
 * Raw HTTP with node:http, not fetch: the suite must see every header line as the server sent it
 * (fetch joins duplicates, decodes bodies and follows redirects).
 */
import http from 'node:http';

export interface RawResponse {
  status: number;
  /** Every header line, in order, names lower-cased. */
  headers: [string, string][];
  body: Buffer;
}

export function send(
  origin: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}${target}`,
      { method, headers, agent: false, timeout: 20_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const raw = response.rawHeaders;
          const pairs: [string, string][] = [];
          for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
          resolve({ status: response.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${target}: no answer in 20 s`)));
    request.on('error', reject);
    request.end();
  });
}

/** Every value sent under `name` (one per header line). */
export function values(response: RawResponse, name: string): string[] {
  return response.headers.filter(([key]) => key === name.toLowerCase()).map(([, value]) => value);
}

/** `Vary` (or any list header) as HTTP reads it: all lines joined, split on commas, lower-cased. */
export function headerList(response: RawResponse, name: string): string[] {
  return values(response, name)
    .flatMap((value) => value.split(','))
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
}
