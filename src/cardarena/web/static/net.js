// The table's connection: one WebSocket to /ws/{key} that reconnects by itself (0.5 s doubling to 8 s), and a
// fixture transport with the same interface that plays back recorded messages (development and tests only).

const FIRST_DELAY = 500;
const MAX_DELAY = 8000;
const OFFLINE_AFTER = 5; // failed attempts in a row before the indicator says "offline" (it still retries)

export class Connection {
  /**
   * @param {string} key the game key
   * @param {string|null} token the seat's secret (sent only inside the first message; null: a spectator)
   * @param {{onMessage: Function, onStatus: Function, since: Function}} hooks
   * @param {{account?: boolean}} options account: no token; the seat bound to the cookie's account
   */
  constructor(key, token, hooks, options = {}) {
    this.key = key;
    this.token = token;
    this.account = Boolean(options.account);
    this.hooks = hooks;
    this.ws = null;
    this.failures = 0; // failed attempts in a row
    this.everOpen = false; // whether a connection was ever welcomed (then a new attempt is a "reconnect")
    this.stopped = false;
    this.timer = null;
    window.addEventListener("online", () => this.retryNow());
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.key)}`;
  }

  connect() {
    if (this.stopped) return;
    this.hooks.onStatus(this.failures === 0 && !this.everOpen ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello = {type: "hello"};
      if (this.token) hello.token = this.token;
      else if (this.account) hello.account = true;
      const since = this.hooks.since();
      if (since > 0) hello.since = since; // resume: the server sends only the log entries after it
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "welcome") {
        this.failures = 0;
        this.everOpen = true;
        this.hooks.onStatus("connected");
      }
      this.hooks.onMessage(message);
    });
    ws.addEventListener("close", () => {
      if (this.ws === ws) this.scheduleRetry();
    });
  }

  scheduleRetry() {
    this.ws = null;
    if (this.stopped) return;
    const delay = Math.min(MAX_DELAY, FIRST_DELAY * 2 ** this.failures);
    this.failures += 1;
    const offline = navigator.onLine === false || this.failures >= OFFLINE_AFTER;
    this.hooks.onStatus(offline ? "offline" : "reconnecting");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.ws || this.stopped) return;
    clearTimeout(this.timer);
    this.connect();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Connect again after stop() (the player chose to take the seat back in this window). */
  resume() {
    this.stopped = false;
    this.failures = 0;
    clearTimeout(this.timer);
    if (!this.ws) this.connect();
  }

  /** Stop for good (a refused token: retrying cannot help; the seat opened elsewhere: only a click retries). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

/**
 * Plays back a fixture file written by tests/web/ui/wire.py: {game, seat, welcome, rules, messages}.
 * Everything the page would send is kept in window.__sent; window.__fixture steps through the messages.
 */
export class FixtureConnection {
  constructor(data, hooks, step) {
    this.data = data;
    this.hooks = hooks;
    this.index = -1;
    this.step = step;
    window.__sent = [];
    window.__fixture = {
      count: data.messages.length,
      index: () => this.index,
      next: () => this.goto(this.index + 1),
      goto: (i) => this.goto(i),
      inject: (message) => this.hooks.onMessage(message),
      sent: window.__sent,
    };
  }

  connect() {
    this.hooks.onStatus("connected");
    this.hooks.onMessage(this.data.welcome);
    this.goto(this.step);
  }

  /** Deliver every message up to index i (the log is cumulative, as over a live connection). */
  goto(i) {
    const last = Math.max(0, Math.min(i, this.data.messages.length - 1));
    for (let k = this.index + 1; k <= last; k++) this.hooks.onMessage(this.data.messages[k]);
    this.index = Math.max(this.index, last);
    return this.index;
  }

  send(message) {
    window.__sent.push(message);
    return true;
  }

  stop() {}
}
