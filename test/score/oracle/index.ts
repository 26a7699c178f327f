/** The frozen scorer (see README.md): the reference the optimised `scoreExtraction` must agree with exactly. */
export { scoreExtraction as scoreExtractionOracle } from './extraction/score-document.js';
export { anlsStar as anlsStarOracle } from './extraction/anls.js';
export { assignMaximum as assignMaximumOracle, assignMinimum as assignMinimumOracle } from './shared/assign.js';
