// The part of http-server's programmatic API the preview uses (the package ships no types).
declare module 'http-server' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  export interface HttpServerOptions {
    root?: string;
    cache?: number;
    showDir?: 'true' | 'false';
    autoIndex?: 'true' | 'false';
    gzip?: boolean;
    brotli?: boolean;
    before?: ((req: IncomingMessage, res: ServerResponse) => void)[];
  }
  export interface HttpServer {
    server: Server;
    listen(port: number, host: string, callback?: () => void): void;
    close(): void;
  }
  const httpServer: { createServer(options: HttpServerOptions): HttpServer };
  export default httpServer;
}
