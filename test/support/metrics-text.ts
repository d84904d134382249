/** Reading /metrics (Prometheus text) in tests. */

/** The value of one sample line (`name{labels} value`) whose labels include `labels`, or undefined. */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',');
    if (wanted.every((w) => have.includes(w))) return Number(match[3]);
  }
  return undefined;
}
