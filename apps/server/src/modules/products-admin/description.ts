import { htmlToText } from '@store/shared';
import sanitizeHtml from 'sanitize-html';

const LINK_REL = 'noopener noreferrer nofollow';

/** http(s), mailto, or a path on this site; sanitize-html checks the scheme again after this. */
function safeHref(href: string): boolean {
  const h = href.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  if (/^(https?:\/\/|mailto:)/.test(h)) return true;
  return /^(\/(?!\/)|#|\?)/.test(h) || (/^[^:/?#]+(\/|$)/.test(h) && !h.includes(':'));
}

/**
 * The rich-text allowlist: paragraphs, headings, lists, emphasis, links, line breaks, quotes and code.
 * Everything else goes (script and style with their content); no attribute survives but a link's href,
 * and that only with http, https or mailto (or a relative path). Editors' <b>/<i>/<strike> become their
 * semantic twins so the stored HTML stays small and predictable.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'u',
    's',
    'a',
    'br',
    'blockquote',
    'code',
    'pre',
  ],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    b: 'strong',
    i: 'em',
    strike: 's',
    del: 's',
    // a refused href is dropped: the <a> stays, inert, with its text (the tag name must not change per
    // element: sanitize-html closes tags by the name their first transform gave)
    a: (_tag, attribs) => {
      const kept: sanitizeHtml.Attributes =
        attribs.href && safeHref(attribs.href) ? { href: attribs.href.trim(), rel: LINK_REL } : { rel: LINK_REL };
      return { tagName: 'a', attribs: kept };
    },
  },
};

interface CleanDescription {
  description: string;
  descriptionText: string;
}

export function sanitizeDescription(html: string): CleanDescription {
  const description = sanitizeHtml(html, OPTIONS).trim();
  return { description, descriptionText: htmlToText(description) };
}
