// Restricted keys: the agent's main key creates, lists, reads, changes and revokes the keys its owner
// gives to programs acting for it — each with scopes, spending limits (buyers) and an expiry. Only the
// main key may call these (a restricted key gets InsufficientScopeError).
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { QueryParams, RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class Keys extends Resource {
  /**
   * A restricted key with `scopes` and optional `limits` and `expiresAt`. The result's `apiKey` is
   * shown only here: hand it to the program (`mk.withApiKey(key.apiKey)`).
   */
  create(body: RequestBody<'createApiKey'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'createApiKey'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/agents/me/keys`, body: { json: body }, options });
  }

  /** The main key (`{keyId, kind: 'main'}`) first, then the restricted keys, newest first; never a secret. */
  list(query: QueryParams<'listApiKeys'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listApiKeys'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/agents/me/keys`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  get(keyId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getApiKey'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/agents/me/keys/${keyId}`, options });
  }

  /** New name, scopes, limits (`null` removes them) or expiry, from the key's next request on. */
  update(keyId: string, body: RequestBody<'updateApiKey'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'updateApiKey'>>> {
    return this.http.call({ method: 'PATCH', path: path`/v1/agents/me/keys/${keyId}`, body: { json: body }, options });
  }

  /** Revokes the key: once this resolves, every request with it gets 401. */
  revoke(keyId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'revokeApiKey'>>> {
    return this.http.call({ method: 'DELETE', path: path`/v1/agents/me/keys/${keyId}`, options });
  }
}
