// Agents: registration (no key needed), the caller's profile, and key rotation.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import type { RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class Agents extends Resource {
  /** Registers a buyer or seller. The response holds `apiKey`, shown once: store it. */
  register(body: RequestBody<'registerAgent'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'registerAgent'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/agents/register`, body: { json: body }, options });
  }

  /** The calling agent's profile. */
  me(options?: RequestOptions): Promise<WithResponse<ResponseData<'getMyAgent'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/agents/me`, options });
  }

  /** Changes the name, organization or contact e-mail. */
  update(body: RequestBody<'updateMyAgent'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'updateMyAgent'>>> {
    return this.http.call({ method: 'PATCH', path: path`/v1/agents/me`, body: { json: body }, options });
  }

  /**
   * Issues a new API key and revokes the one in use at once. This client switches to the new key;
   * store `apiKey` from the result, as it is not shown again.
   */
  async rotateKey(options?: RequestOptions): Promise<WithResponse<ResponseData<'rotateMyApiKey'>>> {
    const rotated = await this.http.call<ResponseData<'rotateMyApiKey'>>({ method: 'POST', path: path`/v1/agents/me/rotate-key`, options });
    this.http.apiKey = rotated.apiKey;
    return rotated;
  }
}
