/**
 * The policy module: who may request, confirm, cancel and approve which
 * operation on which target, from a YAML file (HARBOR_POLICY) or the built-in
 * default. Knows nothing of Slack; group members come from PolicyContext.
 */
export { DEFAULT_POLICY_SOURCE, DEFAULT_POLICY_SUMMARY } from './default-policy.js';
export { parseDuration } from './duration.js';
export { NoMatchingRuleError, PolicyError } from './errors.js';
export { loadPolicy, parsePolicy } from './load.js';
export {
  CHANGE_OPERATIONS,
  type ChangeOperation,
  describeRequest,
  isOperation,
  isReadOperation,
  OPERATIONS,
  type Operation,
  READ_OPERATIONS,
  type ReadOperation,
  type Target,
} from './operations.js';
export type {
  ApprovalDecision,
  ApprovalInput,
  ClickInput,
  Decision,
  Policy,
  PolicyContext,
  RequestInput,
  Requirement,
} from './types.js';
export { describeAction, PLAIN_NAMES, type PolicyNames } from './words.js';
