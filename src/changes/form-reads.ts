/**
 * Form choices and type-ahead read the same lists as the read commands, so
 * they are authorized the same way: a person refused `armadas prod` gets no
 * prod armada names from a picker either, and a workspace the policy does not
 * admit gets no names at all. Each list is judged as the read command that
 * shows it (authorize.ts), before the API is asked.
 */
import type { Operation, Target } from '../policy/operations.js';
import type { Policy } from '../policy/types.js';
import { type Asker, authorizeForm, authorizeRequest, judgeRequest } from './authorize.js';
import type { FormQueries, SuggestionSource } from './form-queries.js';

/** The read command whose answer shows each type-ahead list. */
const SUGGEST_READS: Record<SuggestionSource, { operation: Operation; scope: 'branch' | 'environment' }> = {
  images: { operation: 'images.list', scope: 'branch' },
  vessels: { operation: 'vessels.list', scope: 'environment' },
  formations: { operation: 'formation.show', scope: 'environment' },
  armadas: { operation: 'armadas.list', scope: 'environment' },
  armadasets: { operation: 'armadas.list', scope: 'environment' },
};

/** `queries` as `asker` may use them: every list read judged by the policy as its read command first. */
export function authorizedFormQueries(queries: FormQueries, policy: Policy, asker: Asker): FormQueries {
  const may = (operation: Operation, target: Target) => authorizeRequest(policy, asker, operation, target);
  // Lists not scoped to one place (branches, environments): refused only when no place would be allowed.
  const mayAny = (operation: Operation) => authorizeForm(policy, asker, operation, {});
  return {
    branches: async () => {
      await mayAny('images.list');
      return queries.branches();
    },
    images: async (branch) => {
      await may('images.list', { branch });
      return queries.images(branch);
    },
    regions: async (environment) => {
      await may('region.show', { environment });
      return queries.regions(environment);
    },
    formation: async (environment, name) => {
      await may('formation.show', { environment, formation: name });
      return queries.formation(environment, name);
    },
    vesselsIn: async (environment) => {
      await may('vessels.list', { environment });
      return queries.vesselsIn(environment);
    },
    formationNamesIn: async (environment) => {
      await may('formation.show', { environment });
      return queries.formationNamesIn(environment);
    },
    armadasIn: async (environment) => {
      await may('armadas.list', { environment });
      return queries.armadasIn(environment);
    },
    armadaSetsIn: async (environment) => {
      await may('armadas.list', { environment });
      return queries.armadaSetsIn(environment);
    },
    environments: async () => {
      await mayAny('vessels.list');
      return queries.environments();
    },
    environmentExists: async (environment) => {
      await may('region.show', { environment });
      return queries.environmentExists(environment);
    },
    suggest: async (source, scope, query, limit) => {
      const read = SUGGEST_READS[source];
      await may(read.operation, { [read.scope]: scope });
      return queries.suggest(source, scope, query, limit);
    },
    namedIn: async (text, environments) => {
      // Only environments whose vessels and armadas the asker may list are searched; the others name nothing.
      const allowed: string[] = [];
      for (const environment of environments) {
        const [vessels, armadas] = await Promise.all([
          judgeRequest(policy, asker, 'vessels.list', { environment }),
          judgeRequest(policy, asker, 'armadas.list', { environment }),
        ]);
        if (vessels.allowed && armadas.allowed) allowed.push(environment);
      }
      return allowed.length > 0 ? queries.namedIn(text, allowed) : undefined;
    },
  };
}
