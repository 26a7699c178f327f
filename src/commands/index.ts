/**
 * Every CLI command, loaded on demand: `docbench --help` and `--version` list the headers alone, and a command
 * runs after importing only its own module (and so only the library code it calls).
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import type { CliContext, CommandFactory } from './context.js';
import type { GlobalArgs } from './global-options.js';
import { COMMAND_HEADERS, type CommandName } from './headers.js';

/** A loaded command as yargs sees it once its module is imported (every docbench command has a builder function). */
interface LoadedCommand {
  builder: (parser: Argv<GlobalArgs>) => Argv<GlobalArgs> | PromiseLike<Argv<GlobalArgs>>;
  handler: (argv: ArgumentsCamelCase<GlobalArgs>) => void | Promise<void>;
}

/**
 * Each command's handler is typed from its own builder (`defineCommand`); behind a lazy import, yargs cannot
 * know that type before the module loads, so the one place that joins them forgets it.
 */
function untyped<A>(factory: CommandFactory<A>): (context: CliContext) => LoadedCommand {
  return (context) => factory(context) as unknown as LoadedCommand;
}

/** Imports one command's module; keyed like COMMAND_HEADERS, whose order `--help` follows. */
const COMMAND_LOADERS: Record<CommandName, () => Promise<(context: CliContext) => LoadedCommand>> = {
  run: async () => untyped((await import('./run.js')).runCommand),
  plan: async () => untyped((await import('./plan.js')).planCommand),
  score: async () => untyped((await import('./score.js')).scoreCommand),
  report: async () => untyped((await import('./report.js')).reportCommand),
  merge: async () => untyped((await import('./merge.js')).mergeCommand),
  serve: async () => untyped((await import('./serve.js')).serveCommand),
  dataset: async () => untyped((await import('./dataset.js')).datasetCommand),
  gate: async () => untyped((await import('./gate.js')).gateCommand),
  diff: async () => untyped((await import('./diff.js')).diffCommand),
  baseline: async () => untyped((await import('./baseline.js')).baselineCommand),
  history: async () => untyped((await import('./history.js')).historyCommand),
  view: async () => untyped((await import('./view.js')).viewCommand),
  systems: async () => untyped((await import('./systems.js')).systemsCommand),
};

/**
 * A command whose module is imported only when yargs runs it: yargs calls the builder (which may return a
 * promise) before the handler, and never for the top-level --help or --version, which need only the header.
 */
function lazyCommand(name: CommandName, context: CliContext): CommandModule<GlobalArgs, GlobalArgs> {
  let loaded: Promise<LoadedCommand> | undefined;
  const load = () => (loaded ??= COMMAND_LOADERS[name]().then((factory) => factory(context)));
  return {
    ...COMMAND_HEADERS[name],
    builder: async (parser: Argv<GlobalArgs>) => (await load()).builder(parser),
    handler: async (argv) => {
      await (await load()).handler(argv);
    },
  };
}

/** Adds every command to `parser`, each loading its module only when it runs. */
export function registerCommands(parser: Argv<GlobalArgs>, context: CliContext): Argv<GlobalArgs> {
  for (const name of Object.keys(COMMAND_HEADERS) as CommandName[]) parser = parser.command(lazyCommand(name, context));
  return parser;
}
