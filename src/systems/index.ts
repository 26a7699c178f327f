/** Systems: the registry of kinds, their configuration, and live systems for the runner (docs/systems.md). */
export type * from './types.js';
export { SYSTEM_KINDS, findSystemKind } from './registry.js';
export { parseSystemsSection, selectSystems, SYSTEM_NAME } from './config.js';
export type { SystemSpec, SystemsSection, SystemChoice, DefaultSystemSettings } from './config.js';
export { createSystems, closeSystems, createSystemsRedactor, operationsOf } from './create.js';
export { computeCost } from './cost.js';
export { INCUMBENT, storedAnswers, storedFolder } from './kinds/stored.js';
export { localEngineDataDir, startLocalEngine } from './kinds/local.js';
