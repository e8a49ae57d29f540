import sanitizeHtml from 'sanitize-html';

/**
 * Removes scripts, event handlers and `javascript:` URLs from user-supplied HTML.
 *
 * Self-contained on purpose (it names nothing outside its body): the sanitizer worker runs
 * this very function from its source text (see sanitizer-pool.ts).
 */
export function sanitizeRichTextWith(sanitize: typeof sanitizeHtml, html: string): string {
  return sanitize(html, {
    allowedTags: [...sanitize.defaults.allowedTags, 'img', 'span', 'u', 's'],
    allowedAttributes: {
      a: ['href', 'name', 'target', 'rel', 'title'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      '*': ['class'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
  });
}

/** On the calling thread: for short texts (see SanitizerPool.richTexts) and tests. */
export function sanitizeRichText(html: string): string {
  return sanitizeRichTextWith(sanitizeHtml, html);
}
