/** The project's own preview (`npm start`), in this process: the factory the command line uses. */
import { createPreviewServer } from '../../scripts/preview/server.ts';
import type { ServerUnderTest } from './server.ts';

export function previewServer(): ServerUnderTest {
  return {
    host: 'preview',
    title: 'the preview server (`npm start`)',
    unavailable: () => undefined,
    async start(site) {
      const server = createPreviewServer({ root: site.dist });
      const address = await server.listen(0, '127.0.0.1');
      return {
        origin: `http://127.0.0.1:${address.port}`,
        describe: () => `createPreviewServer({ root: ${JSON.stringify(site.dist)} })`,
        stop: () => server.close(),
      };
    },
  };
}
