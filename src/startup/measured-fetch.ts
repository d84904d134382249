/**
 * Wraps the hosting API client's fetch so every call is counted and timed in
 * the metrics, without the client knowing about Prometheus.
 */
import nodeFetch from 'node-fetch';
import type { FetchLike } from '../gamefabric/request.js';
import { apiResource, type CoreMetrics } from '../runtime/metrics.js';

/** `fetch` that records each call's method, resource, status and latency (until response headers). */
export function measuredFetch(metrics: CoreMetrics, fetch: FetchLike = nodeFetch): FetchLike {
  const measured = async (...args: Parameters<FetchLike>) => {
    const [url, init] = args;
    const method = (init?.method ?? 'GET').toUpperCase();
    const resource = apiResource(new URL(String(url)).pathname);
    const stop = metrics.apiSeconds.startTimer({ method, resource });
    try {
      const response = await fetch(...args);
      metrics.apiCalls.inc({ method, resource, status: String(response.status) });
      return response;
    } catch (err) {
      metrics.apiCalls.inc({ method, resource, status: 'network' });
      throw err;
    } finally {
      stop();
    }
  };
  return measured as FetchLike;
}
