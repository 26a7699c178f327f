/** Entry point of a child `docbench` process in the drills: the CLI from the sources, as bin/docbench.js runs dist/. */
import { main } from '../../src/cli.js';

void main(process.argv.slice(2));
