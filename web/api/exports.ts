/**
 * The package's one export list, behind both entries: `index.ts` (browsers
 * and bundlers) and `node.ts` (Node) re-export everything here and add only
 * their own loaders. tests/web/unit/api-exports.test.ts checks that the two
 * entries export the same names.
 */
export { SlowStart } from './slowstart.js';
export { Balancer } from './balancer.js';
export { Timeline } from './timeline.js';
export { SlowStartError, type SlowStartErrorCode } from './errors.js';
export { NO_WINNER, NOT_A_PICK } from './winners.js';
export { BackendState, Lab, Traffic } from './lab.js';
export type { Curve, HealthCheck, Policy, ServiceModel, SimulationLimits, SimulationSize, TrafficDefaults, TrafficOptionInfo, TrafficOptions } from './lab.js';
export type { BuiltInTest, Mistake, MistakeScope, RunDiagnosis, TestEvidence, WeightProblem } from './grading.js';
export { coldLatency } from './your-system.js';
export type {
  Band, CanaryFit, CanaryFitOptions, CommandResult, ConfigFormat, ConfigNote, ImportedConfig, ImportedServer, ImportedSetting, ImportOptions, LogFormat, SystemCommandName,
} from './your-system.js';
export type * from './types.js';
export type { EngineOptions } from '../wasm/engine.mjs';
