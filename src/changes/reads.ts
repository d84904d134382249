/**
 * The reads: every read command and `logs --follow` is authorized here, by the
 * same path as changes (authorize.ts), then answered from the hosting API as
 * neutral data. Not-found answers become UserErrors that name what exists.
 * The Slack layer asks this, never the API client.
 */
import type { GameFabricClient } from '../gamefabric/client.js';
import { isNotFound } from '../gamefabric/errors.js';
import type { Operation, Target } from '../policy/operations.js';
import type { Policy } from '../policy/types.js';
import type { ReadBudget } from '../read-budget/read-budget.js';
import {
  type ArmadasView,
  type FleetView,
  queryArmada,
  queryArmadaSet,
  queryArmadas,
} from './armada-queries.js';
import { type Asker, authorizeForm, authorizeRequest, judgeRequest } from './authorize.js';
import { resolveBranch } from './branches.js';
import { type FormQueries, formQueries } from './form-queries.js';
import { authorizedFormQueries, type ListAuthority } from './form-reads.js';
import {
  type FormationSummary,
  queryFormations,
  queryRegions,
  queryVessel,
  type RegionSummary,
  type VesselView,
} from './list-queries.js';
import { missingIn } from './not-found.js';
import {
  type FormationView,
  type ImageGroup,
  queryFormation,
  queryImages,
  queryRegion,
  queryVessels,
  type RegionView,
  type VesselSummary,
} from './queries.js';
import { querySites, type SitesView } from './site-queries.js';

export interface ReadsOptions {
  api: GameFabricClient;
  policy: Policy;
  /** HARBOR_BRANCHES: restricts the API's branches offered and accepted, when set. */
  branches?: readonly string[] | undefined;
  /** Bounds, coalesces and briefly caches the lists type-ahead reads. */
  budget: ReadBudget;
  /** HARBOR_ENVIRONMENTS: the environments to look in when the API will not list them. */
  environments?: readonly string[] | undefined;
}

/** A live tail's subject, checked: the asker may read its logs and the Vessel exists. */
export interface TailSubject {
  environment: string;
  vessel: string;
}

export class Reads {
  // What forms read to offer choices; handed out only through formsFor, so every list read is authorized.
  private readonly forms: FormQueries;

  constructor(private readonly o: ReadsOptions) {
    this.forms = formQueries(o.api, o.budget, o.branches);
  }

  /** What forms and type-ahead read to offer `asker` choices, each list judged as its read command. */
  formsFor(asker: Asker): FormQueries {
    return authorizedFormQueries(this.forms, this.listAuthority(asker));
  }

  /**
   * Each form list judged as the read command showing it. A list not scoped
   * to one place (branches, environments) is refused only when no place
   * would be allowed (authorizeForm with an empty target).
   */
  private listAuthority(asker: Asker): ListAuthority {
    const { policy } = this.o;
    const may = (operation: Operation, target: Target) =>
      Object.keys(target).length > 0
        ? authorizeRequest(policy, asker, operation, target)
        : authorizeForm(policy, asker, operation, target);
    const allowed = async (operation: Operation, target: Target) =>
      (await judgeRequest(policy, asker, operation, target)).allowed;
    return {
      images: (branch) => may('images.list', branch ? { branch } : {}),
      vessels: (environment) => may('vessels.list', environment ? { environment } : {}),
      formations: (environment, formation) =>
        may('formation.show', { environment, ...(formation ? { formation } : {}) }),
      regions: (environment) => may('region.show', { environment }),
      armadas: (environment) => may('armadas.list', { environment }),
      canName: async (environment) =>
        (await allowed('vessels.list', { environment })) && (await allowed('armadas.list', { environment })),
    };
  }

  /** Images of a branch (typed by name or display name), grouped by image; narrowed by `image[:tag]`. */
  async images(
    asker: Asker,
    typedBranch: string,
    ref?: string,
  ): Promise<{ branch: string; groups: ImageGroup[] }> {
    const branch = await this.branch(typedBranch, 'branch');
    await authorizeRequest(this.o.policy, asker, 'images.list', { branch });
    return { branch, groups: await queryImages(this.o.api, branch, ref) };
  }

  /** Vessels of an environment with their state. */
  async vessels(asker: Asker, environment: string): Promise<VesselSummary[]> {
    await authorizeRequest(this.o.policy, asker, 'vessels.list', { environment });
    return queryVessels(this.o.api, environment);
  }

  /**
   * One Vessel: region, state, containers, formation. Asked as `vessels.list`
   * on the vessel, so a policy that lets someone list an environment's vessels
   * lets them look at one.
   */
  async vessel(asker: Asker, environment: string, vessel: string): Promise<VesselView> {
    await authorizeRequest(this.o.policy, asker, 'vessels.list', { environment, vessel });
    return queryVessel(this.o.api, environment, vessel);
  }

  /**
   * The Formations of an environment. Asked as `formation.show` on the
   * environment (no formation named), so a rule that limits someone to some
   * formations does not let them list all of them.
   */
  async formations(asker: Asker, environment: string): Promise<FormationSummary[]> {
    await authorizeRequest(this.o.policy, asker, 'formation.show', { environment });
    return queryFormations(this.o.api, environment);
  }

  /** The Regions of an environment; asked as `region.show` on the environment, as `formations` is. */
  async regions(asker: Asker, environment: string): Promise<RegionSummary[]> {
    await authorizeRequest(this.o.policy, asker, 'region.show', { environment });
    return queryRegions(this.o.api, environment);
  }

  /** One Formation with its vessels' live state. */
  async formation(asker: Asker, environment: string, formation: string): Promise<FormationView> {
    await authorizeRequest(this.o.policy, asker, 'formation.show', { environment, formation });
    return queryFormation(this.o.api, environment, formation);
  }

  /** One Region with its types and their scheduling. */
  async region(asker: Asker, environment: string, region: string): Promise<RegionView> {
    await authorizeRequest(this.o.policy, asker, 'region.show', { environment, region });
    return queryRegion(this.o.api, environment, region);
  }

  /**
   * The Sites and the fleets behind each (`sites.list`, cluster-scoped):
   * refused unless some environment allows it; then each environment counts
   * only where `sites.list` allows it, and its fleets only where
   * `armadas.list` does too.
   */
  async sites(asker: Asker, region?: string): Promise<SitesView> {
    const { policy } = this.o;
    await authorizeForm(policy, asker, 'sites.list', region ? { region } : {});
    const allowed = async (operation: Operation, target: Target) =>
      (await judgeRequest(policy, asker, operation, target)).allowed;
    const access = {
      sites: (environment: string) => allowed('sites.list', { environment, ...(region ? { region } : {}) }),
      fleets: (environment: string) => allowed('armadas.list', { environment }),
    };
    return querySites(this.o.api, access, this.o.environments ?? [], region);
  }

  /** Every Armada and ArmadaSet of an environment, summarised. */
  async armadas(asker: Asker, environment: string): Promise<ArmadasView> {
    await authorizeRequest(this.o.policy, asker, 'armadas.list', { environment });
    return queryArmadas(this.o.api, environment);
  }

  /** One Armada: the whole picture. */
  async armada(asker: Asker, environment: string, armada: string): Promise<FleetView> {
    await authorizeRequest(this.o.policy, asker, 'armada.show', { environment, armada });
    return queryArmada(this.o.api, environment, armada);
  }

  /** One ArmadaSet: the whole picture. */
  async armadaSet(asker: Asker, environment: string, armadaSet: string): Promise<FleetView> {
    await authorizeRequest(this.o.policy, asker, 'armadaset.show', { environment, armadaSet });
    return queryArmadaSet(this.o.api, environment, armadaSet);
  }

  /** The last `lines` lines of a Vessel's logs (one container, or the API's default). */
  async logs(
    asker: Asker,
    environment: string,
    vessel: string,
    opts: { lines: number; container?: string | undefined },
  ): Promise<string[]> {
    await authorizeRequest(this.o.policy, asker, 'logs.read', { environment, vessel });
    return this.o.api
      .vesselLogs(environment, vessel, {
        tailLines: opts.lines,
        ...(opts.container ? { container: opts.container } : {}),
      })
      .catch(this.missingVessel(environment, vessel));
  }

  /** Checks a live tail before it starts: the asker may read the logs, and the Vessel exists. */
  async tailSubject(asker: Asker, environment: string, vessel: string): Promise<TailSubject> {
    await authorizeRequest(this.o.policy, asker, 'logs.read', { environment, vessel });
    await this.o.api.getVessel(environment, vessel).catch(this.missingVessel(environment, vessel));
    return { environment, vessel };
  }

  /** The branch name for what was typed in `field` (name or display name, any case); UserError listing branches. */
  branch(typed: string, field: string): Promise<string> {
    return resolveBranch(this.o.api, typed, field, this.o.branches);
  }

  private missingVessel(environment: string, vessel: string) {
    return async (err: unknown): Promise<never> => {
      if (!isNotFound(err)) throw err;
      throw await missingIn('vessel', vessel, environment, async () =>
        (await this.o.api.listVessels(environment)).map((v) => v.metadata.name),
      );
    };
  }
}
