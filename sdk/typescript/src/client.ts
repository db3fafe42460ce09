// The client: one object per agent key, with a property per resource (mk.orders.list(), …).
import { HttpClient, type ClientOptions } from './http.ts';
import { Agents } from './resources/agents.ts';
import { Offers, Products, SellerProducts, Templates } from './resources/catalog.ts';
import { Events } from './resources/events.ts';
import { Feeds } from './resources/feeds.ts';
import { Keys } from './resources/keys.ts';
import { Negotiations } from './resources/negotiations.ts';
import { Orders } from './resources/orders.ts';
import { Requests } from './resources/requests.ts';
import { Rfqs } from './resources/rfqs.ts';
import { Search } from './resources/search.ts';
import { TestHelpers } from './resources/test-helpers.ts';
import { Webhooks } from './resources/webhooks.ts';

export class Marketplace {
  readonly agents: Agents;
  /** The agent's restricted keys (main key only). */
  readonly keys: Keys;
  readonly webhooks: Webhooks;
  readonly feeds: Feeds;
  readonly templates: Templates;
  readonly sellerProducts: SellerProducts;
  readonly products: Products;
  readonly offers: Offers;
  readonly search: Search;
  readonly negotiations: Negotiations;
  readonly orders: Orders;
  /** Requests for quotes: ask many sellers at once, compare sealed quotes, award one. */
  readonly rfqs: Rfqs;
  readonly events: Events;
  /** The caller's request log (last 7 days). */
  readonly requests: Requests;
  /** The sandbox's test helpers (a sandbox stack or `npm start` only). */
  readonly testHelpers: TestHelpers;
  readonly #http: HttpClient;

  constructor(options: ClientOptions = {}) {
    const http = new HttpClient(options);
    this.#http = http;
    this.agents = new Agents(http);
    this.keys = new Keys(http);
    this.webhooks = new Webhooks(http);
    this.feeds = new Feeds(http);
    this.templates = new Templates(http);
    this.sellerProducts = new SellerProducts(http);
    this.products = new Products(http);
    this.offers = new Offers(http);
    this.search = new Search(http);
    this.negotiations = new Negotiations(http);
    this.orders = new Orders(http);
    this.rfqs = new Rfqs(http);
    this.events = new Events(http);
    this.requests = new Requests(http);
    this.testHelpers = new TestHelpers(http);
  }

  /** A client with the same settings and another API key (e.g. the one registration returned). */
  withApiKey(apiKey: string): Marketplace {
    return new Marketplace({ ...this.#http.options, apiKey });
  }
}
