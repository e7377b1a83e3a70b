// The connection: one websocket to a table, frames and versions (docs/PROTOCOL.md). It knows
// nothing of cards: it hands snapshots, events, acks and errors to the callbacks it is given.

export class Connection {
  constructor(tableId, handlers, storage = sessionStorage) {
    this.tableId = tableId;
    // {snapshot(frame), event(frame), presence(frame), ack(frame, entry), error(frame, entry), status(text)}
    this.handlers = handlers;
    this.storage = storage;
    const saved = storage.getItem(`table-${tableId}-v`);
    this.version = saved !== null && saved !== "" ? Number(saved) : null;
    this.nextId = Number(storage.getItem(`table-${tableId}-id`)) || 1;
    this.pending = new Map(); // id -> {frame, context}
    this.ws = null;
    this.retry = 0;
    this.everConnected = false;
    this.closedForGood = false;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.version !== null ? `?v=${this.version}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.tableId}/${query}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.everConnected = true;
      this.handlers.status("open");
      for (const { frame } of this.pending.values()) ws.send(JSON.stringify(frame));
    };
    ws.onmessage = (message) => this.receive(JSON.parse(message.data));
    ws.onclose = (event) => {
      if (event.code === 4401 || event.code === 4404) {
        this.closedForGood = true;
        this.handlers.status(event.code === 4401 ? "login" : "gone");
        return;
      }
      if (this.everConnected) this.handlers.status("lost");
      this.retry = Math.min(this.retry + 1, 5);
      setTimeout(() => this.connect(), 300 * this.retry);
    };
  }

  reconnectIfClosed() {
    if (!this.closedForGood && this.ws && this.ws.readyState !== WebSocket.OPEN) this.connect();
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /** Send an action with a fresh id; ``context`` comes back with its ack or error. */
  act(type, fields = {}, context = null) {
    const id = `a-${Date.now().toString(36)}-${this.nextId++}`;
    this.storage.setItem(`table-${this.tableId}-id`, String(this.nextId));
    const frame = { id, type, ...fields };
    this.pending.set(id, { frame, context });
    this.send(frame);
    return id;
  }

  setVersion(v) {
    this.version = v;
    this.storage.setItem(`table-${this.tableId}-v`, String(v));
  }

  receive(frame) {
    if ("ack" in frame) {
      const entry = this.pending.get(frame.ack);
      this.pending.delete(frame.ack);
      this.handlers.ack(frame, entry);
      return;
    }
    if ("error" in frame) {
      const entry = frame.id ? this.pending.get(frame.id) : null;
      if (entry) this.pending.delete(frame.id);
      this.handlers.error(frame, entry);
      return;
    }
    if (frame.type === "ping") return this.send({ type: "pong" });
    if (frame.type === "pong") return;
    if (frame.type === "presence") return this.handlers.presence(frame);
    if (frame.type === "snapshot") {
      this.setVersion(frame.v);
      this.handlers.snapshot(frame);
      return;
    }
    if ("v" in frame) {
      if (this.version !== null && frame.v !== this.version + 1) {
        this.send({ type: "resync", v: this.version });
        return;
      }
      this.setVersion(frame.v);
      if (frame.type) this.handlers.event(frame);
    }
  }
}
