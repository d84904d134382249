/**
 * What a form shows or needs of a hosting API object, and nothing more: the
 * modals draw pickers from these, so a change in the API's shapes stops here
 * (in changes/) instead of reaching every form.
 */
import {
  type Armada,
  type ArmadaSet,
  armadaSetOwner,
  type Distribution,
} from '../api-shapes/armada-resources.js';
import {
  type Container,
  type Formation,
  type Image,
  type Region,
  SCHEDULING_STRATEGIES,
  schedulingOf,
  type Vessel,
} from '../api-shapes/resources.js';

/** The strategies a region type can be scheduled by, for the scheduling pickers. */
export const SCHEDULING_CHOICES: readonly string[] = SCHEDULING_STRATEGIES;

/** One build of a branch: its internal name (what a template refers to) and its `image:tag`. */
export interface ImagePick {
  name: string;
  image: string;
  tag: string;
}

/** A region, its display name and its types with their scheduling strategy. */
export interface RegionPick {
  name: string;
  displayName?: string;
  types: { name: string; scheduling: string }[];
}

/** A vessel: its name, its state, and whether no Formation owns it (only those are deleted alone). */
export interface VesselPick {
  name: string;
  state?: string;
  standalone: boolean;
}

/** A container of a template: what the image and args pickers prefill. */
export interface ContainerPick {
  name: string;
  branch?: string;
  /** The internal image name the template runs. */
  image?: string;
  args?: string[];
}

/** One region type of a fleet with the counts it has now. */
export interface RegionTypePick {
  name: string;
  minReplicas?: number;
  bufferSize?: number;
  maxReplicas?: number;
}

/** An Armada or ArmadaSet: its regions (one for an Armada) with their region types, and its containers. */
export interface FleetPick {
  kind: 'Armada' | 'ArmadaSet';
  name: string;
  /** The ArmadaSet that owns an Armada (which then is scaled through the set). */
  owner?: string;
  regions: { region: string; types: RegionTypePick[] }[];
  containers: ContainerPick[];
}

/** A Formation: the names of its vessels and its template's containers. */
export interface FormationPick {
  name: string;
  vessels: string[];
  containers: ContainerPick[];
}

export function imagePick(i: Image): ImagePick {
  return { name: i.metadata.name, image: i.spec.image, tag: i.spec.tag };
}

export function regionPick(r: Region): RegionPick {
  return {
    name: r.metadata.name,
    ...(r.spec.displayName ? { displayName: r.spec.displayName } : {}),
    types: (r.spec.types ?? []).map((t) => ({ name: t.name, scheduling: schedulingOf(t) })),
  };
}

export function vesselPick(v: Vessel): VesselPick {
  const state = v.status?.state;
  return {
    name: v.metadata.name,
    ...(state ? { state } : {}),
    standalone: !(v.metadata.ownerReferences ?? []).some((o) => o.kind === 'Formation'),
  };
}

function containerPick(c: Container): ContainerPick {
  return {
    name: c.name,
    ...(c.branch !== undefined ? { branch: c.branch } : {}),
    ...(c.image !== undefined ? { image: c.image } : {}),
    ...(c.args !== undefined ? { args: c.args } : {}),
  };
}

function typePick(d: Distribution): RegionTypePick {
  return {
    name: d.name,
    ...(d.minReplicas !== undefined ? { minReplicas: d.minReplicas } : {}),
    ...(d.bufferSize !== undefined ? { bufferSize: d.bufferSize } : {}),
    ...(d.maxReplicas !== undefined ? { maxReplicas: d.maxReplicas } : {}),
  };
}

export function armadaPick(a: Armada): FleetPick {
  const owner = armadaSetOwner(a);
  return {
    kind: 'Armada',
    name: a.metadata.name,
    ...(owner ? { owner } : {}),
    regions: [{ region: a.spec.region, types: a.spec.distribution.map(typePick) }],
    containers: a.spec.template.spec.containers.map(containerPick),
  };
}

export function armadaSetPick(s: ArmadaSet): FleetPick {
  return {
    kind: 'ArmadaSet',
    name: s.metadata.name,
    regions: s.spec.armadas.map((a) => ({ region: a.region, types: a.distribution.map(typePick) })),
    containers: s.spec.template.spec.containers.map(containerPick),
  };
}

export function formationPick(f: Formation): FormationPick {
  return {
    name: f.metadata.name,
    vessels: f.spec.vessels.map((v) => v.name),
    containers: (f.spec.template?.spec.containers ?? []).map(containerPick),
  };
}
