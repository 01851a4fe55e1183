/** What the shared HTTP suite needs from a server it runs against. */
import type { BuiltSite } from './site.ts';

/** The hosts the suite runs against; each has a row in the exceptions table (exceptions.ts). */
export type HostName = 'nginx' | 'apache' | 'apache-htaccess' | 'caddy' | 'wrangler' | 'preview';

export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The configuration the server was started with, and its output so far: for failure messages. */
  describe(): string;
  stop(): Promise<void>;
}

export interface ServerUnderTest {
  host: HostName;
  title: string;
  /** Why this server cannot run here (its binary is missing), or undefined when it can. */
  unavailable(): string | undefined;
  start(site: BuiltSite): Promise<RunningServer>;
}
