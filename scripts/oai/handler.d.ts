/**
 * The types of handler.js (plain JavaScript, since nginx and Cloudflare run it as it is), for the
 * TypeScript that calls it: the preview and `npm run dev`.
 */

/** What the handler answers: the HTTP status, the Content-Type, the body, and Allow with a 405. */
export interface OaiAnswer {
  status: number;
  type: string;
  body: string;
  allow?: string;
}

/** The text of a file of the output folder (`oai/items.json`), or null where there is none. */
export type ReadOutputFile = (path: string) => Promise<string | null>;

/** The part of njs's request object the nginx entry uses. */
export interface NginxRequest {
  method: string;
  variables: { document_root?: string; args?: string };
  headersIn: Record<string, string | undefined>;
  headersOut: Record<string, string | undefined>;
  requestText?: string;
  return(status: number, body?: string): void;
  error(message: string): void;
}

declare const handler: {
  /** One request: `query` is the raw query string, or a POST's form-encoded body; `now` gives responseDate. */
  answer(method: string, query: string, read: ReadOutputFile, now: Date): Promise<OaiAnswer>;
  /** Cloudflare Pages' `_worker.js` entry: `/oai` answered, everything else from `env.ASSETS`. */
  fetch(request: Request, env: { ASSETS: { fetch(request: Request | string): Promise<Response> } }): Promise<Response>;
  /** nginx's `js_content` entry. */
  nginx(r: NginxRequest): Promise<void>;
};
export default handler;
