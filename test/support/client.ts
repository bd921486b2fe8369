// A small HTTP client for tests: Basic auth, urlencoded params (objects/arrays JSON-encoded).
export interface ApiResponse {
  status: number;
  body: Record<string, any>;
  headers: Headers;
}

export type Params = Record<string, unknown>;

export function encodeParams(params: Params): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.append(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form.toString();
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly email?: string,
    readonly apiKey?: string,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { ...extra };
    if (this.email !== undefined && this.apiKey !== undefined) {
      headers.authorization = "Basic " + Buffer.from(`${this.email}:${this.apiKey}`).toString("base64");
    }
    return headers;
  }

  async request(
    method: string,
    path: string,
    params: Params = {},
    options: { query?: boolean; headers?: Record<string, string>; rawBody?: string | Buffer } = {},
  ): Promise<ApiResponse> {
    const inQuery = options.query ?? (method === "GET" || method === "HEAD");
    const encoded = encodeParams(params);
    const url = `${this.baseUrl}/api/v1${path}${inQuery && encoded ? (path.includes("?") ? "&" : "?") + encoded : ""}`;
    const init: RequestInit = { method, headers: this.headers(options.headers) };
    if (options.rawBody !== undefined) init.body = options.rawBody;
    else if (!inQuery) {
      init.body = encoded;
      (init.headers as Record<string, string>)["content-type"] = "application/x-www-form-urlencoded";
    }
    const res = await fetch(url, init);
    const text = await res.text();
    let body: Record<string, any>;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: non-JSON response ${res.status}: ${text.slice(0, 200)}`);
    }
    return { status: res.status, body, headers: res.headers };
  }

  get(path: string, params?: Params) {
    return this.request("GET", path, params);
  }
  post(path: string, params?: Params) {
    return this.request("POST", path, params);
  }
  patch(path: string, params?: Params) {
    return this.request("PATCH", path, params);
  }
  delete(path: string, params?: Params) {
    return this.request("DELETE", path, params);
  }
}
