/** A live tail's request (the tail form), under the same name rules as the change operations. */
import type { z } from 'zod';
import { name, optionalName, record } from './vocabulary.js';

export const tailRequestSchema = record({
  environment: name('environment', 'dev'),
  vessel: name('vessel', 'lobby-1'),
  container: optionalName('container', 'game-server'),
});

export type TailRequestInput = z.input<typeof tailRequestSchema>;
