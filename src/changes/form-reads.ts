/**
 * Form choices and type-ahead read the same lists as the read commands, so
 * they are authorized the same way: a person refused `armadas prod` gets no
 * prod armada names from a picker either, and a workspace the policy does not
 * admit gets no names at all. Each list is judged as the read command that
 * shows it (`ListAuthority`, implemented by reads.ts through authorize.ts,
 * where the read operations are named), before the API is asked.
 */
import type { FormQueries } from './form-queries.js';

/** Throws the policy's refusal (a UserError) unless the asker may read each kind of list. */
export interface ListAuthority {
  images(branch?: string): Promise<void>;
  vessels(environment?: string): Promise<void>;
  formations(environment: string, formation?: string): Promise<void>;
  regions(environment: string): Promise<void>;
  armadas(environment: string): Promise<void>;
  /** Whether both the vessels and the armadas of `environment` may be read (no throw). */
  canName(environment: string): Promise<boolean>;
}

/** `queries` as the asker `may` use them: every list read judged first. */
export function authorizedFormQueries(queries: FormQueries, may: ListAuthority): FormQueries {
  return {
    branches: async () => {
      await may.images();
      return queries.branches();
    },
    images: async (branch) => {
      await may.images(branch);
      return queries.images(branch);
    },
    regions: async (environment) => {
      await may.regions(environment);
      return queries.regions(environment);
    },
    formation: async (environment, name) => {
      await may.formations(environment, name);
      return queries.formation(environment, name);
    },
    vesselsIn: async (environment) => {
      await may.vessels(environment);
      return queries.vesselsIn(environment);
    },
    formationNamesIn: async (environment) => {
      await may.formations(environment);
      return queries.formationNamesIn(environment);
    },
    armadasIn: async (environment) => {
      await may.armadas(environment);
      return queries.armadasIn(environment);
    },
    armadaSetsIn: async (environment) => {
      await may.armadas(environment);
      return queries.armadaSetsIn(environment);
    },
    environments: async () => {
      await may.vessels();
      return queries.environments();
    },
    environmentExists: async (environment) => {
      await may.regions(environment);
      return queries.environmentExists(environment);
    },
    suggest: async (source, scope, query, limit) => {
      switch (source) {
        case 'images':
          await may.images(scope);
          break;
        case 'vessels':
          await may.vessels(scope);
          break;
        case 'formations':
          await may.formations(scope);
          break;
        case 'armadas':
        case 'armadasets':
          await may.armadas(scope);
          break;
      }
      return queries.suggest(source, scope, query, limit);
    },
    namedIn: async (text, environments) => {
      // Only environments whose vessels and armadas the asker may list are searched; the others name nothing.
      const allowed: string[] = [];
      for (const environment of environments) if (await may.canName(environment)) allowed.push(environment);
      return allowed.length > 0 ? queries.namedIn(text, allowed) : undefined;
    },
  };
}
