/**
 * Slack's emoji shortcodes as the Unicode emoji Slack draws for them: every
 * shortcode the bot writes (a test scans the bot's sources for them) and the
 * ones people type most. Aliases Slack accepts point at the same emoji.
 * Shortcodes not listed stay as typed, which is also what Slack shows for a
 * name it does not know. A browser without a colour emoji font (the page
 * works offline, so none is fetched) gets, for the bot's own shortcodes,
 * symbols ordinary text fonts carry, coloured by what they mean.
 */
const VS16 = '\uFE0F';

const EMOJI: Record<string, string> = {
  // What the bot writes.
  white_check_mark: '\u2705',
  heavy_check_mark: `\u2714${VS16}`,
  ballot_box_with_check: `\u2611${VS16}`,
  x: '\u274C',
  warning: `\u26A0${VS16}`,
  no_entry: '\u26D4',
  no_entry_sign: '\u{1F6AB}',
  hourglass: '\u231B',
  hourglass_flowing_sand: '\u23F3',
  gear: `\u2699${VS16}`,
  raised_hand: '\u270B',
  point_right: '\u{1F449}',
  scroll: '\u{1F4DC}',
  pause_button: `\u23F8${VS16}`,
  arrows_counterclockwise: '\u{1F504}',
  // A freeze in force, and its end (issue 41).
  snowflake: `\u2744${VS16}`,
  sunny: `\u2600${VS16}`,
  // A guarded rollout, and its automatic rollback (issue 42).
  shield: `\u{1F6E1}${VS16}`,
  rewind: '\u23EA',
  // What people type most.
  '+1': '\u{1F44D}',
  thumbsup: '\u{1F44D}',
  '-1': '\u{1F44E}',
  thumbsdown: '\u{1F44E}',
  ok_hand: '\u{1F44C}',
  clap: '\u{1F44F}',
  pray: '\u{1F64F}',
  wave: '\u{1F44B}',
  eyes: '\u{1F440}',
  tada: '\u{1F389}',
  rocket: '\u{1F680}',
  fire: '\u{1F525}',
  boom: '\u{1F4A5}',
  sparkles: '\u2728',
  star: '\u2B50',
  heart: `\u2764${VS16}`,
  smile: '\u{1F604}',
  slightly_smiling_face: '\u{1F642}',
  joy: '\u{1F602}',
  thinking_face: '\u{1F914}',
  sweat_smile: '\u{1F605}',
  cry: '\u{1F622}',
  rotating_light: '\u{1F6A8}',
  bell: '\u{1F514}',
  mag: '\u{1F50D}',
  lock: '\u{1F512}',
  unlock: '\u{1F513}',
  key: '\u{1F511}',
  bug: '\u{1F41B}',
  wrench: '\u{1F527}',
  hammer_and_wrench: `\u{1F6E0}${VS16}`,
  package: '\u{1F4E6}',
  ship: '\u{1F6A2}',
  anchor: '\u2693',
  construction: '\u{1F6A7}',
  stopwatch: `\u23F1${VS16}`,
  alarm_clock: '\u23F0',
  calendar: '\u{1F4C6}',
  memo: '\u{1F4DD}',
  pushpin: '\u{1F4CC}',
  link: '\u{1F517}',
  information_source: `\u2139${VS16}`,
  question: '\u2753',
  exclamation: '\u2757',
  heavy_plus_sign: '\u2795',
  heavy_minus_sign: '\u2796',
  arrow_right: `\u27A1${VS16}`,
  arrow_up: `\u2B06${VS16}`,
  arrow_down: `\u2B07${VS16}`,
  repeat: '\u{1F501}',
  large_green_circle: '\u{1F7E2}',
  large_yellow_circle: '\u{1F7E1}',
  red_circle: '\u{1F534}',
  large_blue_circle: '\u{1F535}',
  white_circle: '\u26AA',
  black_circle: '\u26AB',
  stop_sign: '\u{1F6D1}',
  skull: '\u{1F480}',
  zzz: '\u{1F4A4}',
  chart_with_upwards_trend: '\u{1F4C8}',
  chart_with_downwards_trend: '\u{1F4C9}',
  video_game: '\u{1F3AE}',
  earth_africa: '\u{1F30D}',
  globe_with_meridians: '\u{1F310}',
};

export type SymbolKind = 'ok' | 'bad' | 'warn' | 'wait' | 'info';

const TEXT_SYMBOLS: Record<string, [string, SymbolKind]> = {
  white_check_mark: ['\u2714', 'ok'],
  heavy_check_mark: ['\u2714', 'ok'],
  ballot_box_with_check: ['\u2611', 'ok'],
  x: ['\u2716', 'bad'],
  warning: ['\u26A0', 'warn'],
  no_entry: ['\u2296', 'bad'],
  no_entry_sign: ['\u2298', 'bad'],
  hourglass: ['\u231B', 'wait'],
  hourglass_flowing_sand: ['\u231B', 'wait'],
  gear: ['\u2699', 'wait'],
  raised_hand: ['\u270B', 'warn'],
  point_right: ['\u261E', 'info'],
  scroll: ['\u2630', 'info'],
  pause_button: ['\u23F8', 'warn'],
  arrows_counterclockwise: ['\u21BA', 'wait'],
  snowflake: ['\u2744', 'warn'],
  sunny: ['\u2600', 'ok'],
  shield: ['\u25C8', 'info'],
  rewind: ['\u00AB', 'warn'],
  alarm_clock: ['\u23F0', 'wait'],
  large_blue_circle: ['\u25CF', 'info'],
  rotating_light: ['\u26A0', 'bad'],
  eyes: ['\u25C9', 'info'],
  rocket: ['\u2191', 'info'],
  zzz: ['\u25CC', 'wait'],
};

/**
 * What to draw for `:name:`: the emoji Slack draws, or with `textOnly` a text
 * symbol where one stands in for it; undefined for a name Slack leaves as text.
 */
export function emojiFor(name: string, textOnly = false): { symbol: string; kind?: SymbolKind } | undefined {
  if (!Object.hasOwn(EMOJI, name)) return undefined;
  const text = textOnly && Object.hasOwn(TEXT_SYMBOLS, name) ? TEXT_SYMBOLS[name] : undefined;
  return text ? { symbol: text[0], kind: text[1] } : { symbol: EMOJI[name] as string };
}
