/**
 * "Did you mean" for mistyped command words and flags. The distance lives
 * with the domain (src/changes/closest-names.ts), where "not found" answers
 * use it for resource names too.
 */
export { closestWords, editDistance } from '../../changes/closest-names.js';
