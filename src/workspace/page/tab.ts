/**
 * Who this browser tab is and which channel it shows. Each tab keeps its own
 * (in its URL and sessionStorage, both of which survive a reload), as each
 * Slack client is signed in on its own; the last choice made in any tab is
 * only the starting point of a new tab.
 */
type Choice = 'as' | 'channel';

const LAST_CHOICE: Record<Choice, string> = { as: 'harbor.viewer', channel: 'harbor.channel' };
const TAB_CHOICE: Record<Choice, string> = { as: 'harbor.tab.viewer', channel: 'harbor.tab.channel' };

/** This tab's choice: its URL, then what it chose before a reload, then the last choice of any tab. */
export function tabChoice(choice: Choice): string {
  return (
    new URLSearchParams(location.search).get(choice) ??
    sessionStorage.getItem(TAB_CHOICE[choice]) ??
    localStorage.getItem(LAST_CHOICE[choice]) ??
    ''
  );
}

/** Remembers a choice for this tab (URL and session) and as the starting point of new tabs. */
export function keepTabChoice(choice: Choice, value: string): void {
  sessionStorage.setItem(TAB_CHOICE[choice], value);
  localStorage.setItem(LAST_CHOICE[choice], value);
  const url = new URL(location.href);
  url.searchParams.set(choice, value);
  history.replaceState(history.state, '', url);
}
