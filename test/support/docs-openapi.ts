/** Small helpers to walk an OpenAPI 3 document and a Swagger UI page in the docs e2e tests. */

export interface OpenApiResponse {
  description?: string;
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

export interface OpenApiOperation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, Record<string, unknown>> };
}

export interface DocumentedOperation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** The security that applies to an operation: its own, else the document's. */
export const effectiveSecurity = (document: OpenApiDocument, operation: OpenApiOperation) => operation.security ?? document.security ?? [];

/** Every `$ref` string anywhere in a value. */
export function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner)));
  }
  return [];
}

/** The Content-Security-Policy header as directive name → sources. */
export function parseCsp(header: string | undefined): Record<string, string[]> {
  const directives: Record<string, string[]> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives[name.toLowerCase()] = sources;
  }
  return directives;
}

/** The sources a fetch directive allows, falling back to default-src as browsers do. */
export const cspSources = (csp: Record<string, string[]>, directive: string) => csp[directive] ?? csp['default-src'] ?? [];

export interface PageAssets {
  scripts: string[];
  stylesheets: string[];
  icons: string[];
  inlineScripts: number;
  inlineStyles: number;
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
const attributeValue = (tag: string, name: string) => {
  const match = attribute(tag, name);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
};

/** The `<script src>`, `<link href>` (stylesheets and icons) and inline scripts and styles of an HTML page. */
export function pageAssets(html: string): PageAssets {
  const scriptTags = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi)];
  const linkTags = [...html.matchAll(/<link\b[^>]*>/gi)].map((match) => match[0]);
  const links = (kind: RegExp) =>
    linkTags
      .filter((tag) => kind.test(attributeValue(tag, 'rel') ?? ''))
      .map((tag) => attributeValue(tag, 'href'))
      .filter((href): href is string => !!href);
  return {
    scripts: scriptTags.map((match) => attributeValue(match[0].slice(0, match[0].indexOf('>') + 1), 'src')).filter((src): src is string => !!src),
    stylesheets: links(/stylesheet/i),
    icons: links(/icon/i),
    inlineScripts: scriptTags.filter((match) => !attribute(match[0].slice(0, match[0].indexOf('>') + 1), 'src') && match[1].trim() !== '').length,
    inlineStyles: [...html.matchAll(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi)].length + (/\sstyle\s*=/i.test(html) ? 1 : 0),
  };
}
