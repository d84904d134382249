/**
 * The Kubernetes manifests, rendered as `kubectl kustomize` renders them, held
 * to the code: every environment variable they set is one src/config reads
 * (and their values pass it), the ports are the ones the config gives the
 * server, the probe paths are the server's, the secrets come from Secrets,
 * and the grace period outlasts the bot's own shutdown deadline. The
 * PostgreSQL overlay's worker (HARBOR_ROLE=worker) is held to the same, with
 * no Slack secret, the bot's image and hosting API, and pods the bot's
 * Service does not select.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { CONFIG_ENV_NAMES, type Config, configSecrets, readConfig } from '../../src/config/config.js';
import { parsePolicy } from '../../src/policy/load.js';
import { PROBE_PATHS } from '../../src/probes/health.js';

/** The parts of the rendered objects these checks read. */
interface Doc {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: unknown;
  data?: Record<string, string>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}
interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  env: EnvVar[];
  ports: { name: string; containerPort: number }[];
  startupProbe: Probe;
  livenessProbe: Probe;
  readinessProbe: Probe;
  securityContext: Record<string, unknown>;
  volumeMounts: { name: string; mountPath: string }[];
  resources: unknown;
}
interface Volume {
  name: string;
  configMap?: { name: string };
  secret?: { secretName: string };
  persistentVolumeClaim?: { claimName: string };
}
interface DeploymentSpec {
  replicas: number;
  strategy: unknown;
  selector: { matchLabels: Record<string, string> };
  template: {
    metadata: { labels: Record<string, string>; annotations: Record<string, string> };
    spec: {
      containers: Container[];
      volumes: Volume[];
      terminationGracePeriodSeconds: number;
      securityContext: Record<string, unknown>;
    };
  };
}
interface ServiceSpec {
  selector: Record<string, string>;
  ports: { name: string; targetPort: string }[];
}

function kubectlAvailable(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// CI machines have kubectl; elsewhere say plainly that this check did not run.
const haveKubectl = kubectlAvailable();
const maybe = haveKubectl || process.env.CI ? describe : describe.skip;
if (!haveKubectl) process.stderr.write('kubectl not found: the manifest checks are skipped\n');

function render(target: string): Doc[] {
  const out = execFileSync('kubectl', ['kustomize', target], { encoding: 'utf8' });
  return parseAllDocuments(out).map((d) => d.toJS() as Doc);
}

function one(docs: Doc[], kind: string, name?: string): Doc {
  const found = docs.filter((d) => d.kind === kind && (name === undefined || d.metadata.name === name));
  expect(found).toHaveLength(1);
  return found[0] as Doc;
}

/** Whether `selector` selects pods labelled `labels`. */
function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** The container's environment as the config reader would see it; a Secret's value names where it came from. */
function envOf(container: Container): { env: Record<string, string>; fromSecret: Set<string> } {
  const env: Record<string, string> = {};
  const fromSecret = new Set<string>();
  for (const e of container.env) {
    if (typeof e.value === 'string') env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) {
      fromSecret.add(e.name);
      // Plausible values (the config checks token prefixes and URL schemes), marked as the secret's.
      const marker = `from-secret-${e.valueFrom.secretKeyRef.name}-${e.valueFrom.secretKeyRef.key}`;
      env[e.name] =
        {
          SLACK_BOT_TOKEN: `xoxb-${marker}`,
          SLACK_APP_TOKEN: `xapp-${marker}`,
          DATABASE_URL: `postgres://harbor:${marker}@db.internal:5432/harbormaster`,
        }[e.name] ?? marker;
    } else if (e.valueFrom?.fieldRef) env[e.name] = 'harbormaster-7d9f-abcde';
  }
  return { env, fromSecret };
}

function configOf(env: Record<string, string>): Config {
  // The optional Slack keys: HTTP mode (signing secret, no app token) is what the Service and Ingress serve.
  const { SLACK_APP_TOKEN: _socketMode, ...http } = env;
  const result = readConfig(http);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

const TARGETS = { base: 'deploy/base', postgres: 'deploy/overlays/postgres' } as const;

maybe.each(Object.entries(TARGETS))('kubectl kustomize %s', (name, target) => {
  const docs = render(target);
  const deployment = one(docs, 'Deployment', 'harbormaster').spec as DeploymentSpec;
  const pod = deployment.template.spec;
  const container = pod.containers[0] as Container;
  const { env, fromSecret } = envOf(container);
  const config = configOf(env);
  const port = (portName: string) => container.ports.find((p) => p.name === portName)?.containerPort;

  it('sets only environment variables src/config reads, with values it accepts', () => {
    const unknown = Object.keys(env).filter((n) => !CONFIG_ENV_NAMES.includes(n));
    expect(unknown).toEqual([]);
    expect(config.local).toBe(false);
  });

  it('takes every secret from a Secret, never a literal', () => {
    for (const secret of configSecrets(configOf(env))) expect(secret).toContain('from-secret-');
    expect([...fromSecret].sort()).toEqual(
      expect.arrayContaining([
        'GAMEFABRIC_TOKEN',
        'SLACK_APP_TOKEN',
        'SLACK_BOT_TOKEN',
        'SLACK_SIGNING_SECRET',
      ]),
    );
  });

  it('exposes the ports the config gives the server, the Service pointing at them by name', () => {
    expect(port('http')).toBe(config.slack.port);
    expect(port('metrics')).toBe(config.slack.metricsPort);
    const service = one(docs, 'Service').spec as ServiceSpec;
    for (const p of service.ports) expect(port(p.targetPort)).toBeDefined();
    expect(service.selector).toEqual(deployment.selector.matchLabels);
    for (const [k, v] of Object.entries(deployment.selector.matchLabels))
      expect(deployment.template.metadata.labels[k]).toBe(v);
  });

  it("probes the server's paths on the port that serves them", () => {
    // With HARBOR_METRICS_PORT set, the probes answer there and not on PORT.
    expect(config.slack.metricsPort).toBeDefined();
    expect(container.livenessProbe.httpGet).toEqual({ path: PROBE_PATHS.live, port: 'metrics' });
    expect(container.startupProbe.httpGet).toEqual({ path: PROBE_PATHS.live, port: 'metrics' });
    expect(container.readinessProbe.httpGet).toEqual({ path: PROBE_PATHS.ready, port: 'metrics' });
    const annotations = deployment.template.metadata.annotations;
    expect(annotations['prometheus.io/path']).toBe(PROBE_PATHS.metrics);
    expect(Number(annotations['prometheus.io/port'])).toBe(config.slack.metricsPort);
  });

  it('gives the pod longer to stop than the bot gives itself', () => {
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.shutdownTimeoutMs);
    expect(config.shutdownDrainMs).toBeGreaterThan(0);
  });

  it('runs as the image user, not root, read-only', () => {
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
  });

  it('mounts the policy ConfigMap where HARBOR_POLICY points, and the policy is valid', () => {
    const configMap = one(docs, 'ConfigMap');
    const volume = pod.volumes.find((v) => v.configMap?.name === configMap.metadata.name);
    const mount = container.volumeMounts.find((m) => m.name === volume?.name);
    const [file, text] = Object.entries(configMap.data ?? {})[0] ?? [];
    expect(`${mount?.mountPath}/${file}`).toBe(config.policyPath);
    expect(() => parsePolicy(String(text), { resolveGroup: async () => [] }, 'deploy policy')).not.toThrow();
  });

  if (name === 'base') {
    it('is one replica on SQLite with a PersistentVolumeClaim, replaced by Recreate', () => {
      expect(deployment.replicas).toBe(1);
      expect(deployment.strategy).toEqual({ type: 'Recreate' });
      expect(config.databaseUrl).toBeUndefined();
      const claim = one(docs, 'PersistentVolumeClaim');
      const volume = pod.volumes.find((v) => v.persistentVolumeClaim?.claimName === claim.metadata.name);
      const mount = container.volumeMounts.find((m) => m.name === volume?.name);
      expect(mount?.mountPath).toBe(config.dataDir);
    });
  } else {
    it('is three replicas on PostgreSQL, rolled one at a time, with no SQLite volume', () => {
      expect(deployment.replicas).toBe(3);
      expect(deployment.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
      });
      expect(fromSecret.has('DATABASE_URL')).toBe(true);
      expect(config.databaseUrl).toMatch(/^postgres:/);
      expect(docs.some((d) => d.kind === 'PersistentVolumeClaim')).toBe(false);
      const pdb = one(docs, 'PodDisruptionBudget').spec as { selector: { matchLabels: unknown } };
      expect(pdb.selector.matchLabels).toEqual(deployment.selector.matchLabels);
    });
  }
});

maybe('kubectl kustomize deploy/overlays/postgres: the worker', () => {
  const docs = render(TARGETS.postgres);
  const deployment = one(docs, 'Deployment', 'harbormaster-worker').spec as DeploymentSpec;
  const bot = one(docs, 'Deployment', 'harbormaster').spec as DeploymentSpec;
  const pod = deployment.template.spec;
  const [container, ...others] = pod.containers as [Container, ...Container[]];
  const botContainer = bot.template.spec.containers[0] as Container;
  const { env, fromSecret } = envOf(container);
  const config = configOf(env);
  const port = (portName: string) => container.ports.find((p) => p.name === portName)?.containerPort;

  it('is a worker on PostgreSQL: settings src/config reads, with values it accepts, in one container', () => {
    expect(others).toEqual([]);
    expect(Object.keys(env).filter((n) => !CONFIG_ENV_NAMES.includes(n))).toEqual([]);
    expect(config.role).toBe('worker');
    expect(config.local).toBe(false);
    expect(config.databaseUrl).toMatch(/^postgres:/);
  });

  it('mounts no Slack secret and sets no Slack setting; its secrets come from Secrets', () => {
    expect(Object.keys(env).filter((n) => n.startsWith('SLACK_'))).toEqual([]);
    expect(JSON.stringify(pod)).not.toContain('harbormaster-slack');
    expect(pod.volumes.filter((v) => v.secret)).toEqual([]);
    for (const secret of configSecrets(config)) expect(secret).toContain('from-secret-');
    expect([...fromSecret].sort()).toEqual(['DATABASE_URL', 'GAMEFABRIC_TOKEN']);
  });

  it("probes the worker's paths on the port that serves them, and Prometheus scrapes it there", () => {
    expect(port('metrics')).toBe(config.slack.metricsPort);
    expect(container.livenessProbe.httpGet).toEqual({ path: PROBE_PATHS.live, port: 'metrics' });
    expect(container.startupProbe.httpGet).toEqual({ path: PROBE_PATHS.live, port: 'metrics' });
    expect(container.readinessProbe.httpGet).toEqual({ path: PROBE_PATHS.ready, port: 'metrics' });
    const annotations = deployment.template.metadata.annotations;
    expect(annotations['prometheus.io/path']).toBe(PROBE_PATHS.metrics);
    expect(Number(annotations['prometheus.io/port'])).toBe(config.slack.metricsPort);
  });

  it("runs the bot's image against the bot's hosting API and environments, with the bot's resources", () => {
    const botEnv = envOf(botContainer).env;
    expect(container.image).toBe(botContainer.image);
    expect(container.image).not.toBe('harbormaster');
    expect(env.GAMEFABRIC_URL).toBe(botEnv.GAMEFABRIC_URL);
    expect(env.HARBOR_ENVIRONMENTS).toBe(botEnv.HARBOR_ENVIRONMENTS);
    expect(container.resources).toEqual(botContainer.resources);
  });

  it("has pods of its own: the bot's Service and PodDisruptionBudget do not select them", () => {
    const labels = deployment.template.metadata.labels;
    expect(selects(deployment.selector.matchLabels, labels)).toBe(true);
    expect(selects(bot.selector.matchLabels, labels)).toBe(false);
    expect(selects((one(docs, 'Service').spec as ServiceSpec).selector, labels)).toBe(false);
    const pdb = one(docs, 'PodDisruptionBudget').spec as {
      selector: { matchLabels: Record<string, string> };
    };
    expect(selects(pdb.selector.matchLabels, labels)).toBe(false);
  });

  it('stops within its grace period, runs as the image user read-only, and reads the policy HARBOR_POLICY names', () => {
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.shutdownTimeoutMs);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    const configMap = one(docs, 'ConfigMap');
    const volume = pod.volumes.find((v) => v.configMap?.name === configMap.metadata.name);
    const mount = container.volumeMounts.find((m) => m.name === volume?.name);
    const [file] = Object.keys(configMap.data ?? {});
    expect(`${mount?.mountPath}/${file}`).toBe(config.policyPath);
  });
});

it('keeps the deploy policy in step with the documented example', () => {
  expect(readFileSync('deploy/base/policy.yml', 'utf8')).toBe(readFileSync('examples/policy.yml', 'utf8'));
});
