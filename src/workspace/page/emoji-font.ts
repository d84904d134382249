/**
 * Whether the browser draws colour emoji: one emoji drawn on a small canvas
 * with the page's emoji fonts; a missing glyph comes out as a grey box, a
 * colour emoji font gives coloured pixels.
 */
const EMOJI_FONTS = '"Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", "Twemoji Mozilla"';

export function hasColourEmoji(): boolean {
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 32;
  const c = canvas.getContext('2d', { willReadFrequently: true });
  if (!c) return true;
  c.font = `24px ${EMOJI_FONTS}, sans-serif`;
  c.textBaseline = 'top';
  c.fillStyle = '#000';
  c.fillText('\u26D4', 0, 0);
  const data = c.getImageData(0, 0, 32, 32).data;
  for (let i = 0; i < data.length; i += 4) {
    if ((data[i + 3] ?? 0) > 0 && (data[i] !== data[i + 1] || data[i + 1] !== data[i + 2])) return true;
  }
  return false;
}
