/** `docbench view`: a local web app over a reports directory — runs, reports, diffs, and the truth review. */
export { startViewServer, type ViewServer, type ViewServerOptions } from './view-server.js';
export { TOKEN_HEADER } from './security.js';
export { isLoopbackHost } from '../loopback.js';
export { TRUTH_CHANGES_FILE, type TruthChange } from './truth-files.js';
