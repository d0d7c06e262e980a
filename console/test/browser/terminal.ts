/**
 * A terminal's text as a page, for a screenshot of what `npm start` prints: the few ANSI colour
 * codes the QR code uses (black or white text on white, and reset) become styled spans.
 */
export function terminalHtml(text: string): string {
  const colours: Record<string, string> = { '30': '#000', '37': '#fff', '47': '#fff' };
  let fg = '#e6e6e6';
  let bg = 'transparent';
  let html = '';
  // eslint-disable-next-line no-control-regex -- the escape character is what is looked for
  for (const [index, part] of text.split(/\x1b\[(\d+)m/).entries()) {
    if (index % 2 === 1) {
      if (part === '0') [fg, bg] = ['#e6e6e6', 'transparent'];
      else if (part === '47') bg = colours[part]!;
      else if (colours[part]) fg = colours[part];
      continue;
    }
    if (!part) continue;
    const escaped = part.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    html += `<span style="color:${fg};background:${bg}">${escaped}</span>`;
  }
  return `<!doctype html><meta charset="utf-8"><body style="margin:0;background:#1e1e1e">
<pre style="margin:0;padding:16px;font:15px/1 'DejaVu Sans Mono',monospace;color:#e6e6e6">${html}</pre>`;
}
