/**
 * HTTP for the import, on Node's own fetch. Every failure becomes one sentence naming the URL and
 * what was expected (network errors, timeouts, non-JSON, HTML error pages, truncated
 * bodies); nothing here writes to disk.
 */

/** `html`: the answer was a 200 with an HTML page (a login page, a fallback, DRF's browsable API). */
export type Failure = { ok: false; message: string; html?: boolean };

export type Fetched = { ok: true; bytes: Buffer; contentType: string; url: string } | Failure;

export interface FetchOptions {
  /** For the whole exchange, body included. */
  timeoutMs: number;
}

export async function fetchBytes(url: string, { timeoutMs }: FetchOptions): Promise<Fetched> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      signal,
      redirect: 'follow',
      headers: { accept: 'application/json, application/pdf;q=0.9, */*;q=0.1' },
    });
  } catch (error) {
    return { ok: false, message: describeFailure(error, timeoutMs, 'no answer') };
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    const html = /^text\/html/i.test(contentType) ? ' (an HTML error page)' : '';
    return {
      ok: false,
      message: `answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${html}`,
    };
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    // Read chunk by chunk to know how much arrived when the connection drops.
    const reader = response.body?.getReader();
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
      chunks.push(chunk.value);
      received += chunk.value.length;
    }
  } catch (error) {
    const total = Number.isFinite(declared) ? ` of the ${declared}` : '';
    return {
      ok: false,
      message: describeFailure(
        error,
        timeoutMs,
        `closed the connection after ${received}${total} bytes (a truncated body)`,
      ),
    };
  }
  const bytes = Buffer.concat(chunks);
  if (Number.isFinite(declared) && response.headers.get('content-encoding') === null && bytes.length !== declared) {
    return { ok: false, message: `sent ${bytes.length} of the ${declared} bytes it announced (a truncated body)` };
  }
  return { ok: true, bytes, contentType, url: response.url || url };
}

/** Fetches one list and parses it; `parseJsonBody` says what is wrong with a bad body. */
export async function fetchJson(
  url: string,
  options: FetchOptions,
): Promise<{ ok: true; value: unknown; bytes: Buffer } | Failure> {
  const fetched = await fetchBytes(url, options);
  if (!fetched.ok) return fetched;
  return parseJsonBody(fetched.bytes, fetched.contentType);
}

/** JSON text in, value out; an HTML page, a cut-off body and plain garbage each get their own words. */
export function parseJsonBody(bytes: Buffer, contentType = ''): { ok: true; value: unknown; bytes: Buffer } | Failure {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'is not UTF-8 text' };
  }
  const start = text.trimStart();
  if (/^text\/html/i.test(contentType) || /^<(?:!doctype|html|head|body|\?xml|[a-z])/i.test(start)) {
    return {
      ok: false,
      html: true,
      message: `is an HTML page${contentType ? ` (Content-Type: ${contentType})` : ''}, not JSON`,
    };
  }
  if (start === '') return { ok: false, message: 'is empty' };
  try {
    return { ok: true, value: JSON.parse(text), bytes };
  } catch (error) {
    const message = (error as Error).message;
    if (/end of (?:JSON )?input|Unterminated/i.test(message))
      return { ok: false, message: `ends before the JSON does after ${bytes.length} bytes (a truncated body)` };
    return { ok: false, message: `is not valid JSON (${message})` };
  }
}

function describeFailure(error: unknown, timeoutMs: number, fallback: string): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `gave no complete answer within ${(timeoutMs / 1000).toFixed(timeoutMs % 1000 ? 1 : 0)} s (a timeout)`;
  const code = e.cause?.code;
  if (code === 'ECONNREFUSED') return 'refused the connection (ECONNREFUSED): is the server running?';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `has a host name that does not resolve (${code})`;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || e.message === 'terminated')
    return fallback === 'no answer' ? `closed the connection without an answer (${code ?? e.message})` : fallback;
  return `could not be fetched (${[e.message, e.cause?.code ?? e.cause?.message].filter(Boolean).join(': ')})`;
}
