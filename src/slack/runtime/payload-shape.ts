/**
 * The minimum shape a Slack request body must have before Bolt and the
 * listeners read it. A signature proves who sent a body, not that it is well
 * formed: Bolt itself reads `body.ssl_check` off whatever JSON `payload`
 * holds (`payload=null` crashed the process), and listeners read `user.id`,
 * `view.state` and button values. A body failing these checks is answered
 * 400 with the reason, before any of that code runs.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasString(o: Json, key: string): boolean {
  return typeof o[key] === 'string' && (o[key] as string).length > 0;
}

function userProblem(body: Json): string | undefined {
  const user = body.user;
  if (!isObject(user) || !hasString(user, 'id')) return 'user.id is missing or not a string';
  return undefined;
}

function viewProblem(view: unknown): string | undefined {
  if (!isObject(view)) return 'view is missing or not an object';
  if (!hasString(view, 'id')) return 'view.id is missing or not a string';
  if (typeof view.callback_id !== 'string') return 'view.callback_id is missing or not a string';
  if (view.private_metadata !== undefined && typeof view.private_metadata !== 'string')
    return 'view.private_metadata is not a string';
  const state = view.state;
  if (state !== undefined && (!isObject(state) || !isObject(state.values)))
    return 'view.state.values is not an object';
  return undefined;
}

function stateProblem(view: unknown): string | undefined {
  return isObject(view) && view.state === undefined ? 'view.state is missing' : undefined;
}

function actionsProblem(actions: unknown): string | undefined {
  if (!Array.isArray(actions) || actions.length === 0) return 'actions is missing or empty';
  for (const [i, action] of actions.entries()) {
    if (!isObject(action)) return `actions[${i}] is not an object`;
    if (!hasString(action, 'action_id')) return `actions[${i}].action_id is missing or not a string`;
    if (action.value !== undefined && typeof action.value !== 'string')
      return `actions[${i}].value is not a string`;
  }
  return undefined;
}

/** An interaction payload (the JSON in `payload=`): why it cannot be handled, or undefined when it can. */
export function interactionProblem(payload: unknown): string | undefined {
  if (!isObject(payload)) return 'payload is not a JSON object';
  if (!hasString(payload, 'type')) return 'payload.type is missing or not a string';
  switch (payload.type) {
    case 'block_actions':
      return userProblem(payload) ?? actionsProblem(payload.actions) ?? optionalView(payload);
    case 'view_submission':
      // A submission is read from its state; Slack always sends it, so one without it is forged.
      return userProblem(payload) ?? viewProblem(payload.view) ?? stateProblem(payload.view);
    case 'view_closed':
      return userProblem(payload) ?? viewProblem(payload.view);
    default:
      // The message shortcut (listeners/shortcuts.ts) and type-ahead suggestions (listeners/options.ts)
      // have listeners, and read more than the user inside their own work: a shortcut without its
      // message fails that work (the person is told), a suggestion whose action id or form metadata
      // does not read back answers no options. Any other type has no listener: Bolt acks it.
      return userProblem(payload);
  }
}

// A click inside a modal carries its view; a click in a message carries none.
function optionalView(payload: Json): string | undefined {
  return payload.view === undefined ? undefined : viewProblem(payload.view);
}

/** A slash command's form fields: why they cannot be handled, or undefined when they can. */
export function commandProblem(fields: Record<string, unknown>): string | undefined {
  for (const key of ['command', 'user_id', 'team_id', 'channel_id']) {
    if (typeof fields[key] !== 'string' || fields[key] === '') return `${key} is missing`;
  }
  if (fields.text !== undefined && typeof fields.text !== 'string') return 'text is given more than once';
  return undefined;
}

/** An Events API body (JSON): why it cannot be handled, or undefined when it can. */
export function eventProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'body is not a JSON object';
  if (!hasString(body, 'type')) return 'type is missing or not a string';
  // Bolt reads `event.type` of every event callback before any listener runs.
  if (body.type === 'event_callback') {
    if (!isObject(body.event)) return 'event is missing or not an object';
    if (!hasString(body.event, 'type')) return 'event.type is missing or not a string';
  }
  return undefined;
}

/**
 * A Socket Mode envelope's body, by the envelope's type: the same checks as
 * the HTTP bodies the types stand for (a command's fields, an interaction's
 * payload, an Events API body). Undefined when it can be handled.
 */
export function envelopeProblem(type: unknown, body: unknown): string | undefined {
  switch (type) {
    case 'slash_commands':
      return isObject(body) ? commandProblem(body) : 'body is not a JSON object';
    case 'interactive':
      return interactionProblem(body);
    case 'events_api':
      return eventProblem(body);
    default:
      return undefined;
  }
}
