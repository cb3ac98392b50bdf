// Talks to the REST API over HTTP and checks every response against the schema the API's own
// OpenAPI document gives for its route, status and content type (JSON Schema 2020-12, as
// OpenAPI 3.1 uses), so a test fails when the API answers something its document does not say.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { expect } from "vitest";

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON walked by path
type Doc = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the fields it asserts on
  body: any;
  text: string;
}

export interface ApiClient {
  base: string;
  document: Doc;
  /** `route` is the document's path template (`/api/cases/{id}`) the request is checked against. */
  request(
    method: string,
    url: string,
    options?: {
      token?: string;
      body?: unknown;
      rawBody?: string | Buffer;
      headers?: Record<string, string>;
      route?: string;
    },
  ): Promise<ApiResponse>;
  get(url: string, token?: string, headers?: Record<string, string>): Promise<ApiResponse>;
}

/** Fetches /openapi.json, checks it is a valid OpenAPI 3.1 document, and returns a client bound to it. */
export async function apiClient(base: string): Promise<ApiClient> {
  const document: Doc = await (await fetch(`${base}/openapi.json`)).json();
  const result = await new Validator().validate(document);
  expect(result.errors ?? [], "the OpenAPI document is valid OpenAPI 3.1").toEqual([]);
  expect(result.valid).toBe(true);
  expect(document.openapi).toMatch(/^3\.1\./);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "openapi.json", components: document.components ?? {} });
  const compiled = new Map<string, ValidateFunction>();

  function routeOf(method: string, pathname: string): string {
    const candidates = Object.keys(document.paths).filter((template) => {
      if (!document.paths[template][method]) return false;
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
      return pattern.test(pathname);
    });
    // The most literal template wins (`/api/cases/{id}/emails` over a parameter in its place).
    candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    if (!candidates[0]) throw new Error(`The OpenAPI document has no ${method.toUpperCase()} ${pathname}`);
    return candidates[0];
  }

  function check(method: string, route: string, response: ApiResponse): void {
    const operation = document.paths[route][method];
    const spec = operation.responses[String(response.status)];
    expect(spec, `${method.toUpperCase()} ${route} documents status ${response.status}`).toBeDefined();
    if (response.status === 304 || !response.text) return;
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const media = spec.content?.[type];
    expect(media, `${method.toUpperCase()} ${route} ${response.status} documents ${type}`).toBeDefined();
    const key = `${method} ${route} ${response.status} ${type}`;
    let validate = compiled.get(key);
    if (!validate) {
      // Refs in the document point at #/components/…: resolve them in the document registered above.
      const schema = JSON.parse(
        JSON.stringify(media.schema).replaceAll('"#/components/', '"openapi.json#/components/'),
      );
      validate = ajv.compile(schema);
      compiled.set(key, validate);
    }
    const valid = validate(response.body);
    expect(validate.errors ?? [], `${key}: the body matches the documented schema`).toEqual([]);
    expect(valid).toBe(true);
  }

  const client: ApiClient = {
    base,
    document,
    async request(method, url, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | Buffer | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const response = await fetch(`${base}${url}`, { method, headers, body });
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      const result: ApiResponse = {
        status: response.status,
        headers: response.headers,
        text,
        body: text && /json/.test(type) ? JSON.parse(text) : text,
      };
      const lower = method.toLowerCase();
      check(lower, options.route ?? routeOf(lower, new URL(url, base).pathname), result);
      return result;
    },
    get: (url, token, headers) => client.request("GET", url, { token, headers }),
  };
  return client;
}
