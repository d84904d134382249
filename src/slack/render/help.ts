/**
 * Help and usage answers, rendered from the grammar's forms table so they
 * always show what the parser accepts, with the configured command name.
 * Everything that came from the user or the table is escaped: forms are full
 * of `<` and `>`.
 */
import type { KnownBlock } from '@slack/types';
import { SCHEDULING_EXPLAINED } from '../../changes/scheduling-words.js';
import type { Usage } from '../grammar/command.js';
import {
  type FormId,
  formsOfTopic,
  getForm,
  HELP_TOPICS,
  type HelpTopic,
  renderExample,
  renderForm,
} from '../grammar/forms.js';
import { closestWords } from '../grammar/suggest.js';
import { escapeMrkdwn, joinWithMore, LIMITS, truncate } from '../limits.js';
import type { SlackMessage } from './message.js';

interface TopicInfo {
  title: string;
  /** Other words people use for the topic (singulars, command words). */
  aliases: readonly string[];
  /** What the topic is about and what to know before using it. */
  notes: string;
}

const TOPICS: Record<HelpTopic, TopicInfo> = {
  images: {
    title: 'Images',
    aliases: ['image', 'promote', 'promotion', 'branch', 'branches'],
    notes:
      'Images live in branches. A promotion copies one image tag from a source branch into a target branch.',
  },
  vessels: {
    title: 'Vessels',
    aliases: ['vessel'],
    notes: 'A vessel is one game server deployment in one region, made of one or more containers.',
  },
  formations: {
    title: 'Formations',
    aliases: ['formation'],
    notes:
      'A formation groups vessels and gives them a template. In `formation add`, each `--container` starts an override of that container; the `--image` and `--args` after it apply to it. Put `--args` in quotes so its words stay together.',
  },
  regions: {
    title: 'Regions',
    aliases: ['region', 'scheduling', 'packed', 'distributed'],
    notes: `A region has region types, each with a scheduling strategy. ${SCHEDULING_EXPLAINED}`,
  },
  armadas: {
    title: 'Armadas',
    aliases: ['armada', 'armadaset', 'armadasets', 'fleet', 'fleets', 'rollout', 'scale'],
    notes:
      'An armada is an autoscaled fleet of game servers in one region; an ArmadaSet runs one armada per region. Per region type, min and max bound the game servers and the buffer is how many are kept Ready for new matches (max is at least min and buffer; buffer is at least 1, and at most min when min is above 0; 0, 0, 0 drains the region type).',
  },
  logs: {
    title: 'Logs',
    aliases: ['log', 'tail'],
    notes:
      '`--lines` takes 1 to 1000 (default 50); `--follow` keeps the message updating as new lines arrive.',
  },
  watches: {
    title: 'Watches',
    aliases: ['watch', 'unwatch', 'alert', 'alerts'],
    notes:
      'A watched environment is listed every 30 s (one list per kind, whatever the replicas). Trouble is a fleet Degraded (with the Site down), a vessel in Error, a fleet with no ready servers while its minimum is above zero, or a rollout started here that stopped moving. Trouble that lasts the settle time (60 s) posts one alert here, with Show, Logs, What changed (the changes Harbormaster applied to it and its region in 24 h, each with Roll back where it can be undone) and Mute 1 h; when it is well again for as long, the same message says it recovered and how long it lasted. The channel hears only about what the policy lets it read.',
  },
  freezes: {
    title: 'Freezes',
    aliases: ['freeze', 'unfreeze', 'frozen', 'break-glass', 'schedule', 'at'],
    notes:
      "While an environment is frozen, every change there is refused: at request (no preview), at Confirm and Approve, and again right before it is applied; the refusal names who froze it, why and until when. A promotion counts as a change in each environment its ImageUpdaters roll out to. Reads, watches, logs and rollbacks of changes applied before the freeze began are not refused: a rollback is how you get out of trouble. A freeze without `for` or `until` lasts until `unfreeze`. The policy file can also hold recurring windows (`freezes:`, e.g. weekends), which `unfreeze` does not end. To change something during a freeze anyway, add `--break-glass <reason>` (last, or the reason in quotes): the change then needs approval by the policy's break-glass approvers, never its requester, and its message and the audit say it broke a freeze. Scheduled changes: add `--at <time>` to any change command (or fill a form's When field) with `2026-12-01T18:00+01:00`, `2026-12-01T18:00:30Z`, `18:00 Europe/Berlin` (the next one) or `in 2h`. Confirm and approvals happen now; nothing is written before the time; then one replica applies it through the same checks (a freeze in force or a target that moved since the preview refuses it, naming which). Cancel on its message or in `scheduled` stops it until it starts. Approvals expire as the policy says, even before the time (the preview warns).",
  },
  releases: {
    title: 'Releases',
    aliases: ['release'],
    notes:
      'A release gathers related work in one thread. Titles need no quotes. A change typed in a channel with one open release joins it; `--release <title-or-id>` (in quotes when it has spaces) names the release a change joins, `--no-release` keeps it out. Ending a release whose changes still wait asks whether to cancel or keep them.',
  },
  approvals: {
    title: 'Approvals',
    aliases: ['approval', 'approve'],
    notes:
      'Changes that policy sends for approval wait here until someone allowed to approve acts on them. Your own requests that wait on others are listed below, with who is asked and when each expires; approvers are reminded once before a request expires, and you are told when it expired.',
  },
  history: {
    title: 'History',
    aliases: ['audit', 'log'],
    notes:
      'Newest first, ten at a time (Older shows more). A name matches an environment, formation, vessel, region or branch.',
  },
  help: {
    title: 'Help',
    aliases: ['topics'],
    notes: 'Forms in `[brackets]` are optional; `<names>` are yours to fill in.',
  },
};

/**
 * The places that are not commands: the Home tab and the message shortcut.
 * They have no forms, so they are not grammar topics, but `help home` and
 * `help shortcut` answer them like one.
 */
const PLACES = {
  home: {
    title: 'The Home tab',
    aliases: ['home', 'tab', 'app'],
    notes:
      'Open Harbormaster in the sidebar and pick *Home*: it lists the changes waiting for your approval (with Approve and Reject), your own requests and where each stands, the live tails you started (with Stop) and the open releases. It redraws itself when something there moves; the answer to a click there shows on top of it.',
  },
  shortcut: {
    title: 'The message shortcut',
    aliases: ['shortcut', 'shortcuts', 'message'],
    notes:
      'On any message, open *More actions* (⋯) and pick *Harbormaster: show / tail logs*: when the message names a vessel, a form to tail its logs opens (the tail goes in that message’s thread); when it names an armada, its status is shown to you.',
  },
} as const;

type Place = keyof typeof PLACES;

/** The place (Home tab, shortcut) `topic` names, if any. */
function resolvePlace(topic: string): Place | undefined {
  const word = topic.trim().toLowerCase().split(/\s+/)[0] ?? '';
  return (Object.keys(PLACES) as Place[]).find((p) =>
    (PLACES[p].aliases as readonly string[]).includes(word),
  );
}

function placeHelp(commandName: string, place: Place): SlackMessage {
  const info = PLACES[place];
  const blocks: KnownBlock[] = [
    header(`${commandName} help: ${info.title}`),
    section(info.notes),
    context(`Command topics: ${HELP_TOPICS.filter((t) => t !== 'help').join(', ')}.`),
  ];
  return { text: escapeMrkdwn(`${info.title}: ${info.notes}`), blocks };
}

const CHANGES_NOTE =
  'Changes show a preview first and happen only after you confirm; policy may also ask for an approval.';

/** The help topic `topic` names (a topic, one of its aliases, or a command starting with one), if any. */
export function resolveHelpTopic(topic: string): HelpTopic | undefined {
  const words = topic.trim().toLowerCase().split(/\s+/);
  for (const candidate of [words.join(' '), words[0] ?? '']) {
    const found = HELP_TOPICS.find((t) => t === candidate || TOPICS[t].aliases.includes(candidate));
    if (found) return found;
  }
  return undefined;
}

/** The overview of every command, or the forms and examples of one topic; an unknown topic gets the overview with a note. */
export function renderHelp(commandName: string, topic?: string): SlackMessage {
  if (topic === undefined || topic.trim() === '') return overview(commandName);
  const resolved = resolveHelpTopic(topic);
  if (resolved) return topicHelp(commandName, resolved);
  const place = resolvePlace(topic);
  if (place) return placeHelp(commandName, place);
  const close = closestWords(topic.trim(), HELP_TOPICS);
  const guess = close[0] ? ` Did you mean \`${close[0]}\`?` : '';
  const note = `There is no help topic \`${truncate(topic.trim(), 60).replace(/`/g, "'")}\`; topics are ${HELP_TOPICS.join(', ')}, home, shortcut.${guess}`;
  return overview(commandName, note);
}

/** A usage answer: the problem, "did you mean", the closest forms as code, and an example. */
export function renderUsage(commandName: string, usage: Usage): SlackMessage {
  const blocks: KnownBlock[] = [section(usage.problem)];
  if (usage.suggestion) blocks.push(section(usage.suggestion));
  if (usage.forms.length > 0) {
    const forms = joinWithMore(usage.forms.map(escapeMrkdwn), LIMITS.sectionText - 40);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*Usage*\n\`\`\`${forms}\`\`\`` } });
  }
  const footer = [`\`${escapeMrkdwn(commandName)} help\` lists every command.`];
  if (usage.example) footer.unshift(`Example: \`${escapeMrkdwn(truncate(usage.example, 500))}\``);
  blocks.push(context(footer.join('  ')));
  const text = [
    usage.problem,
    usage.suggestion,
    usage.forms.length > 0 ? `Usage: ${usage.forms.join(' | ')}` : undefined,
    usage.example ? `Example: ${usage.example}` : undefined,
  ].filter((line): line is string => line !== undefined);
  return { text: truncate(escapeMrkdwn(text.join('\n')), LIMITS.messageText), blocks };
}

function overview(commandName: string, note?: string): SlackMessage {
  const name = escapeMrkdwn(commandName);
  const blocks: KnownBlock[] = [header(`${commandName} commands`)];
  if (note) blocks.push(section(note));
  const groups = HELP_TOPICS.filter((t) => t !== 'help');
  for (const topic of groups) {
    const lines = formsOfTopic(topic).map(
      (id) => `\`${escapeMrkdwn(renderForm(id, commandName))}\`  ${escapeMrkdwn(getForm(id).description)}`,
    );
    blocks.push(mrkdwnSection(`*${TOPICS[topic].title}*\n${joinWithMore(lines, LIMITS.sectionText - 40)}`));
  }
  blocks.push(
    context(
      `${CHANGES_NOTE}  \`${name} help &lt;topic&gt;\` shows examples; topics are ${groups.join(', ')}. Besides commands: the Home tab (\`${name} help home\`) and the message shortcut (\`${name} help shortcut\`).`,
    ),
  );
  const text = [
    `${commandName} commands:`,
    ...(note ? [note] : []),
    ...groups.flatMap((t) => formsOfTopic(t).map((id) => renderForm(id, commandName))),
    `${commandName} help <topic> shows examples.`,
  ];
  return { text: escapeMrkdwn(joinWithMore(text, LIMITS.messageText - 200)), blocks };
}

function topicHelp(commandName: string, topic: HelpTopic): SlackMessage {
  const info = TOPICS[topic];
  const ids = topic === 'help' ? (['help'] as FormId[]) : formsOfTopic(topic);
  const blocks: KnownBlock[] = [header(`${commandName} help: ${info.title}`), section(info.notes)];
  for (const id of ids) blocks.push(mrkdwnSection(formDetail(commandName, id)));
  const others = HELP_TOPICS.filter((t) => t !== topic && t !== 'help');
  blocks.push(context(`Other topics: ${others.join(', ')}. ${CHANGES_NOTE}`));
  const text = [
    `${commandName} help: ${info.title}`,
    ...ids.flatMap((id) => [renderForm(id, commandName), `  e.g. ${renderExample(id, commandName)}`]),
  ];
  return { text: escapeMrkdwn(joinWithMore(text, LIMITS.messageText - 200)), blocks };
}

// One form: the syntax, what it does, its flags, an example.
function formDetail(commandName: string, id: FormId): string {
  const form = getForm(id);
  const lines = [`\`${escapeMrkdwn(renderForm(id, commandName))}\``, escapeMrkdwn(form.description)];
  for (const flag of form.flags) {
    const syntax = flag.value ? `${flag.name} ${flag.value}` : flag.name;
    lines.push(`• \`${escapeMrkdwn(syntax)}\` ${escapeMrkdwn(flag.description)}`);
  }
  if (form.opensModal) lines.push('_Opens a form._');
  lines.push(`Example: \`${escapeMrkdwn(renderExample(id, commandName))}\``);
  return truncate(lines.join('\n'), LIMITS.sectionText);
}

// A section of text that may contain user input: escaped and cut to Slack's limit.
function section(text: string): KnownBlock {
  return mrkdwnSection(escapeMrkdwn(text));
}

function mrkdwnSection(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) } };
}

function header(text: string): KnownBlock {
  return { type: 'header', text: { type: 'plain_text', text: truncate(text, LIMITS.headerText) } };
}

function context(text: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, LIMITS.contextText) }] };
}
