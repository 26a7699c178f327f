/**
 * `docbench view [reports-dir]`: serve the reports directory as a local web app (runs, reports, diffs,
 * comparison views, truth review) until SIGINT/SIGTERM. The first stdout line is the URL with the session
 * token, so scripts can read it.
 */
import { spawn } from 'node:child_process';
import { UsageError } from '../errors.js';
import { isLoopbackHost, startViewServer } from '../view/index.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';
import { configOption, loadConfig, reportsDirOption } from './shared-options.js';

/** Opens `url` in the desktop's browser; a missing opener is reported, never fatal. */
function openBrowser(url: string, onError: (message: string) => void): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
  child.on('error', (error) =>
    onError(`could not open a browser with ${command}: ${error.message}; open the URL above by hand`),
  );
  child.unref();
}

export const viewCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.view,
  builder: (yargs) =>
    yargs
      .positional('reports-dir', reportsDirOption['reports-dir'])
      .option('port', { type: 'number', default: 0, describe: 'Port to listen on (0: any free port)' })
      .option('host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'Interface to bind (every request needs the session the printed URL opens, on any interface)',
      })
      .option('open', { type: 'boolean', default: false, describe: 'Open the URL in the default browser' })
      .options(configOption),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535)
      throw new UsageError(`--port must be an integer 0–65535, got ${argv.port}`, { subject: '--port' });
    const config = loadConfig(context, {
      ...(argv.config !== undefined ? { configPath: argv.config } : {}),
      ...(argv.reportsDir !== undefined ? { reportsDir: argv.reportsDir } : {}),
    });
    const server = await startViewServer({
      reportsDir: config.reportsDir,
      host: argv.host,
      port: argv.port,
      cwd: context.cwd,
      logger,
    });
    // The first stdout line is the URL, whatever --quiet says: scripts read it.
    context.stdout.write(`${server.url}\n`);
    if (!isLoopbackHost(argv.host))
      logger.warn(
        `listening on ${argv.host}, beyond loopback: anyone with the URL above (it holds the session token) can read the reports and edit the truth`,
      );
    logger.info(`docbench view of ${config.reportsDir}; Ctrl-C to stop`);
    if (argv.open) openBrowser(server.url, (message) => logger.warn(message));
    await new Promise<void>((resolve) => {
      let removeInterrupt = () => {};
      const stop = () => {
        removeInterrupt();
        process.off('SIGTERM', stop);
        server.close().then(resolve, resolve);
      };
      removeInterrupt = context.onInterrupt(stop);
      process.on('SIGTERM', stop);
    });
  },
}));
