import { describe, expect, it } from 'vitest';
import { RICH_TEXT_LIMITS, richTextProblem } from './rich-text';
import { sanitizeRichText } from './sanitize';

describe('richTextProblem', () => {
  it('accepts ordinary rich text, void elements and unclosed <br> included', () => {
    const html = `<p>Open <b>9-17</b><br>Ask at <a href="https://example.com">the desk</a></p>${'line<br>'.repeat(1000)}<img src="x.png"><hr>`;
    expect(richTextProblem(html)).toBeNull();
    expect(richTextProblem('plain text, no markup at all')).toBeNull();
  });

  it('refuses nesting beyond the limit (64 KB of nested <b> blocked the event loop for 0.6 s)', () => {
    expect(richTextProblem('<b>'.repeat(RICH_TEXT_LIMITS.maxDepth))).toBeNull();
    expect(richTextProblem('<b>'.repeat(RICH_TEXT_LIMITS.maxDepth + 1))).toMatch(/more than 100 levels/);
    expect(richTextProblem('<b>'.repeat(21_845))).toMatch(/levels/);
  });

  it('refuses more elements than the limit', () => {
    expect(richTextProblem('<br>'.repeat(RICH_TEXT_LIMITS.maxElements))).toBeNull();
    expect(richTextProblem('<br>'.repeat(RICH_TEXT_LIMITS.maxElements + 1))).toMatch(/more than 5000 HTML elements/);
  });

  it('keeps what it accepts cheap to sanitize', () => {
    const worst = `${'<b>'.repeat(RICH_TEXT_LIMITS.maxDepth)}${'</b>'.repeat(RICH_TEXT_LIMITS.maxDepth)}`.repeat(20);
    expect(richTextProblem(worst)).toBeNull();
    const started = performance.now();
    sanitizeRichText(worst);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
