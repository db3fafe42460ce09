// The base of every resource: the HTTP client it calls through.
import type { HttpClient } from '../http.ts';

export abstract class Resource {
  protected readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }
}
