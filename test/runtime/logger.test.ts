import { describe, expect, it } from '@jest/globals';
import { createMemoryLogger } from '../../src/runtime/logger.js';

describe('the JSON logger', () => {
  it('keeps an error’s stack and its cause chain', () => {
    const logger = createMemoryLogger();
    const inner = new TypeError('socket hang up');
    const outer = new Error('outer', { cause: inner });
    logger.error('request failed', { error: outer });
    const line = JSON.parse(logger.lines[0] ?? '{}') as {
      error: {
        name: string;
        message: string;
        stack: string;
        cause: { name: string; message: string; stack: string };
      };
    };
    expect(line.error.name).toBe('Error');
    expect(line.error.message).toBe('outer');
    expect(line.error.stack).toContain('Error: outer');
    expect(line.error.stack).toContain('logger.test');
    expect(line.error.cause.name).toBe('TypeError');
    expect(line.error.cause.message).toBe('socket hang up');
    expect(line.error.cause.stack).toContain('TypeError: socket hang up');
  });

  it('keeps a cause that is not an Error as it is, and redacts secrets in stacks', () => {
    const logger = createMemoryLogger(['s3cret-token']);
    const err = new Error('login with s3cret-token failed', { cause: { status: 401 } });
    logger.warn('auth', { error: err });
    const text = logger.lines[0] ?? '';
    expect(text).not.toContain('s3cret-token');
    const line = JSON.parse(text) as { error: { cause: unknown; stack: string } };
    expect(line.error.cause).toEqual({ status: 401 });
    expect(line.error.stack).toContain('[REDACTED]');
  });

  it('keeps the extra fields an error carries (status, request)', () => {
    const logger = createMemoryLogger();
    const err = Object.assign(new Error('not found'), { status: 404 });
    logger.info('x', { error: err });
    const line = JSON.parse(logger.lines[0] ?? '{}') as { error: { status: number } };
    expect(line.error.status).toBe(404);
  });
});
