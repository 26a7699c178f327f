/**
 * yargs renders a command's whole help text when it starts the command's handler (src/commands/parser.ts,
 * skipHelpPrecomputation): docbench turns that off, since no handler asks for its help; --help still works.
 */
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { skipHelpPrecomputation } from '../../src/commands/parser.js';

interface Internal {
  getInternalMethods(): { getUsageInstance(): { hasCachedHelpMessage(): boolean } };
}

/** Runs a command with an async handler; whether yargs had rendered and kept its help text by then. */
async function helpRenderedWhenHandled(skip: boolean): Promise<boolean> {
  const parser = yargs(['go', '--depth', '2']).exitProcess(false).strict();
  if (skip) skipHelpPrecomputation(parser);
  let rendered: boolean | undefined;
  parser.command(
    'go',
    'a command',
    (y) => y.option('depth', { type: 'number', describe: 'how deep' }),
    async () => {
      await new Promise((resolve) => setImmediate(resolve));
      rendered = (parser as unknown as Internal).getInternalMethods().getUsageInstance().hasCachedHelpMessage();
    },
  );
  await parser.parseAsync();
  return rendered!;
}

describe('help text before a command runs', () => {
  it('yargs renders it as the handler starts; docbench does not', async () => {
    expect(await helpRenderedWhenHandled(false)).toBe(true);
    expect(await helpRenderedWhenHandled(true)).toBe(false);
  });

  it('--help still prints the command help', async () => {
    const parser = yargs().exitProcess(false);
    skipHelpPrecomputation(parser);
    parser.command(
      'go',
      'a command',
      (y) => y.option('depth', { type: 'number', describe: 'how deep' }),
      () => {},
    );
    let printed = '';
    await parser.parseAsync(['go', '--help'], {}, (_error, _argv, output) => {
      printed = output;
    });
    expect(printed).toContain('--depth');
    expect(printed).toContain('how deep');
  });
});
