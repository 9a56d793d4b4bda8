// Online play: one side of a signed match (tesseract-wasm's Online, over tesseract-wire's Session) through a
// relay server, speaking the WebSocket binding of PROTOCOL.md §12.2: ws(s)://HOST/match/<match id>, one
// binary message per frame, the text `joined` when another connection of the match arrives.
//
// The page owns the socket, the timers and the storage; every rule and every check is in the crates. The
// board shown is a `Chess` mirror rebuilt from the session's moves, so clicks light the legal moves as in
// offline play, and a move is played on the mirror only after the session accepted it.
//
// Storage (localStorage of this origin):
//   tesseract.identity          the long-term identity key, 64 hex digits (secret)
//   tesseract.match.<match id>  {v: 1, invitation, relay, state, phase, saved}: the session's whole state
//                               (secret: the match's keys), saved after every change and before sending
//                               the frames the change queued, so that a reload resumes the match.

const IDENTITY_KEY = 'tesseract.identity';
const MATCH_PREFIX = 'tesseract.match.';
const RETRANSMIT_MS = 2000; // silence before the unacknowledged frames are sent again
const BACKOFF_MS = [1000, 2000, 4000, 8000, 10000]; // reconnect delays, the last one repeated
const STABLE_MS = 5000; // a connection open this long resets the backoff
const MAX_MESSAGE = 65536; // longer messages are not copied into the session: reported by their length
const DEFAULT_RELAY = 'ws://127.0.0.1:8090';
const DROPS_WARNED = 3; // dropped frames before the player is warned

/** What each kind of refused frame means for the player (the wire crate's Error variants). */
const MEANING = {
  Authentication: 'the frame was changed or forged on the way: its signature does not verify',
  Desync: 'the two boards disagree: the opponent’s position after that message is not ours',
  Sequence: 'the frame came out of order or was replayed',
  Malformed: 'the bytes are not a well-formed frame',
  FrameLength: 'the bytes are not a well-formed frame',
  TextNotAllowed: 'the bytes are not a well-formed frame',
  Oversize: 'the message is too long to be a frame',
  Version: 'the frame is of another protocol version',
  WrongMatch: 'the frame is for another match',
  BadKey: 'the opponent’s key was refused',
  IdentityMismatch: 'someone else than the expected player answered',
  Reflection: 'our own frame or key came back',
  Unexpected: 'the frame is not allowed at this point of the match',
  NonCanonical: 'the move text is not the canonical text of a legal move',
  IllegalMove: 'the move is illegal on our board',
  FalseClaim: 'the claimed end of the game does not hold on our board',
  CounterExhausted: 'the match is too long to go on',
};

const REASONS = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  'dead-draw': 'insufficient material',
  fivefold: 'fivefold repetition',
  'seventy-five-moves': 'the 75-move rule',
  threefold: 'threefold repetition, claimed',
  'fifty-moves': 'the 50-move rule, claimed',
  resignation: 'resignation',
  'draw-agreed': 'a draw agreed',
  aborted: 'aborted',
};

const $ = (id) => document.getElementById(id);
const side = (c) => (c === 'w' ? 'White' : 'Black');

/** A start's name in words. */
function describe(start) {
  if (start === 'classic') return 'chess';
  if (start.startsWith('chess960:')) return `Chess960 no. ${start.slice(9)}`;
  return `Tesseract, ${start} army`;
}

/** The mode of the page's views for a start name. */
export function modeOf(start) {
  if (start === 'classic') return 'classic';
  if (start.startsWith('chess960:')) return 'chess960';
  return 'tesseract';
}

/** localStorage that may be missing or refuse (private windows, quotas): errors become null / false. */
const store = {
  get(key) {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    window.localStorage.setItem(key, value); // throws: the caller decides
  },
  remove(key) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      /* nothing to remove */
    }
  },
  keys() {
    try {
      return Object.keys(window.localStorage);
    } catch {
      return [];
    }
  },
};

/** The fields of a `#join=<invitation>[&relay=<url>]` fragment, or null if the fragment is not one. */
export function parseFragment(hash) {
  if (!hash.startsWith('#join=')) return null;
  const params = new URLSearchParams(hash.slice(1));
  const invitation = params.get('join') ?? '';
  return { invitation: invitation.trim(), relay: relayAddress(params.get('relay') ?? '') };
}

/** A relay address `ws(s)://HOST[:PORT]` without a trailing slash, or null if `text` is not one. */
export function relayAddress(text) {
  const m = /^(wss?:\/\/[^/\s?#]+)\/?$/.exec(text.trim());
  return m ? m[1] : null;
}

/** The match id field of an invitation text, if it looks like one (the crates check the rest). */
function matchIdOf(invitation) {
  const id = invitation.split('.')[3] ?? '';
  return /^[0-9a-fA-F]{32}$/.test(id) ? id.toLowerCase() : null;
}

/**
 * The online panel. `host` is the page: { api, adopt(chess, mode), leave(), refresh(), setStatus(text) }.
 */
export class OnlinePanel {
  constructor(host) {
    this.host = host;
    this.session = null; // api.Online
    this.mirror = null; // api.Chess of the session's moves
    this.ws = null;
    this.relay = DEFAULT_RELAY;
    this.defaultRelay = DEFAULT_RELAY;
    this.attempt = 0;
    this.reconnectTimer = 0;
    this.openedAt = 0;
    this.lastTraffic = 0; // time of the last frame sent, or received new (a dropped frame or a copy is silence)
    this.saved = true; // whether the session's state is in storage (else frames are held back)
    this.alert = ''; // a failure shown to the player
    this.warning = ''; // frames dropped because they did not authenticate
    this.note = '';
    this.connection = '';
    this.timer = 0;
    this.log = []; // events, for tests and the curious
    this.ready = false; // set once init() has wired the panel
  }

  // ------------------------------------------------------------------------------------------ set-up

  async init() {
    const api = this.host.api;
    this.identityKey = this.loadIdentity(api);
    this.defaultRelay = await this.probeRelay();
    $('relay-url').value = this.defaultRelay;
    $('online-create').addEventListener('click', () => this.create());
    $('online-copy').addEventListener('click', () => this.copyLink());
    $('online-draw').addEventListener('click', () => this.act((s) => s.offerDraw()));
    $('online-accept').addEventListener('click', () => this.act((s) => s.acceptDraw()));
    $('online-decline').addEventListener('click', () => this.act((s) => s.declineDraw()));
    $('online-claim').addEventListener('click', () => this.act((s) => s.claimDraw()));
    $('online-resign').addEventListener('click', () => this.act((s) => s.resign()));
    $('online-leave').addEventListener('click', () => this.leave(true));
    $('online-start').addEventListener('change', () => this.showStartFields());
    $('identity-export').addEventListener('click', () => this.exportIdentity());
    $('identity-import').addEventListener('submit', (e) => {
      e.preventDefault();
      this.importIdentity($('identity-key').value.trim());
    });
    window.addEventListener('hashchange', () => this.fromLocation());
    this.showStartFields();
    this.showIdentity();
    this.render();
    // Ready once the match of the link (if any) is open: tests and the page act on it from then on.
    await this.fromLocation();
    this.ready = true;
  }

  /** The page's own origin when a relay serves it (it answers /health with ok), else the default. */
  async probeRelay() {
    if (!/^https?:$/.test(location.protocol)) return DEFAULT_RELAY;
    try {
      const reply = await fetch('/health', { cache: 'no-store' });
      if (reply.ok && (await reply.text()).trim() === 'ok') {
        return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
      }
    } catch {
      /* not served by a relay */
    }
    return DEFAULT_RELAY;
  }

  loadIdentity(api) {
    const stored = store.get(IDENTITY_KEY);
    if (stored) {
      try {
        api.Online.identityOf(stored);
        return stored;
      } catch (err) {
        this.note = `The stored identity key was refused (${err.message}); a new one was made.`;
      }
    }
    const key = api.Online.generateIdentity();
    try {
      store.set(IDENTITY_KEY, key);
    } catch (err) {
      this.note = `This browser does not keep the identity key (${err.message}): it changes on reload.`;
    }
    return key;
  }

  showIdentity() {
    $('identity').textContent = this.host.api.Online.identityOf(this.identityKey);
  }

  exportIdentity() {
    const field = $('identity-key');
    field.value = this.identityKey;
    field.type = 'text';
    field.select();
    navigator.clipboard?.writeText(this.identityKey).catch(() => {});
    this.note = 'Your identity key is shown (and copied, if the browser allows): it is secret, keep it to yourself.';
    this.render();
  }

  importIdentity(text) {
    if (this.session) {
      // A reload resumes the match with the stored key: it must stay the one the match was started with.
      this.note = 'Not imported: leave the match first (it was started with the current key).';
      this.render();
      return;
    }
    try {
      this.host.api.Online.identityOf(text);
    } catch (err) {
      this.note = `Not imported: ${err.message}`;
      this.render();
      return;
    }
    this.identityKey = text.toLowerCase();
    try {
      store.set(IDENTITY_KEY, this.identityKey);
      this.note = 'Identity imported: it is used for the next match.';
    } catch (err) {
      this.note = `Imported for this page only: the browser did not store it (${err.message}).`;
    }
    $('identity-key').value = '';
    $('identity-key').type = 'password';
    this.showIdentity();
    this.render();
  }

  showStartFields() {
    $('online-number-label').hidden = $('online-start').value !== 'chess960';
  }

  startName() {
    const start = $('online-start').value;
    return start === 'chess960' ? `chess960:${$('online-number').value.trim()}` : start;
  }

  // ---------------------------------------------------------------------------- create, join, resume

  /**
   * Opens the match of the page's fragment (#join=…): resumes it if this browser saved it, else joins.
   * Resolves once it is open (or refused).
   */
  async fromLocation() {
    const fragment = parseFragment(location.hash);
    if (!fragment) return;
    if (this.session && this.session.invitation() === fragment.invitation) return;
    const id = matchIdOf(fragment.invitation);
    const saved = id ? this.loadRecord(id) : null;
    if (saved?.damaged) {
      // Joining anew would start a second handshake, which the opponent's side refuses (aborting the match).
      this.alert = 'The saved state of this match in this browser is damaged, so it cannot be resumed here.';
      this.render();
      return;
    }
    let session;
    try {
      if (saved) session = this.host.api.Online.resume(saved.state, this.identityKey, fragment.invitation);
      else session = this.host.api.Online.join(fragment.invitation, this.identityKey);
    } catch (err) {
      this.alert = saved
        ? `The saved state of this match cannot be resumed: ${err.message}`
        : `The invitation link cannot be used: ${err.message}`;
      this.render();
      return;
    }
    const relay = saved?.relay ?? fragment.relay ?? this.defaultRelay;
    return this.begin(session, relay, saved ? 'resumed from this browser’s saved state' : 'joined');
  }

  create() {
    const typed = $('relay-url').value;
    const relay = relayAddress(typed);
    if (!relay) {
      this.alert = `The relay address must be ws://HOST:PORT or wss://HOST (not ${JSON.stringify(typed.trim().slice(0, 60))})`;
      this.render();
      return;
    }
    let session;
    try {
      session = this.host.api.Online.create(this.startName(), $('online-color').value, this.identityKey);
    } catch (err) {
      this.alert = `Cannot create the match: ${err.message}`;
      this.render();
      return;
    }
    // The creator's address is the invitation link too, so a reload resumes the match.
    this.begin(session, relay, 'created').then((started) => {
      if (started) history.replaceState(null, '', this.linkPath());
    });
  }

  /**
   * Holds the match's Web Lock while this tab plays it, so that a second tab of the same browser (the
   * link opened twice) does not play the same side too: its frames would reach this tab through the relay
   * and, refused there, end the match. Resolves to the lock's release, or null if another tab holds it.
   */
  lockMatch(id) {
    if (!navigator.locks) return Promise.resolve(() => {});
    return new Promise((resolve) => {
      navigator.locks.request(`tesseract-match-${id}`, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(null);
          return undefined;
        }
        return new Promise((release) => resolve(release));
      });
    });
  }

  /**
   * Starts playing `session` through `relay`, unless another tab of this browser plays the match; resolves
   * to whether it started.
   */
  async begin(session, relay, how) {
    this.leave(false);
    const release = await this.lockMatch(session.matchId());
    if (!release) {
      session.free();
      this.alert = 'This match is open in another tab of this browser: play it there (two tabs playing one side would end the match).';
      this.render();
      return false;
    }
    this.releaseLock = release;
    this.forgetFinished();
    this.session = session;
    this.warning = '';
    this.savedState = null; // what the last write stored (persist writes only a change)
    this.relay = relay;
    this.alert = '';
    this.note = '';
    this.log = [{ type: 'start', how }];
    $('relay-url').value = relay;
    if (!this.rebuildMirror()) {
      this.session.free();
      this.session = null;
      this.releaseLock?.();
      this.releaseLock = null;
      this.host.leave();
      this.render();
      return false;
    }
    this.persist();
    this.connect();
    this.timer = setInterval(() => this.tick(), 500);
    this.render();
    return true;
  }

  /** The page's board: a Chess from the start, with the session's moves. */
  rebuildMirror() {
    const s = this.session;
    let mirror = null;
    try {
      mirror = this.host.api.Chess.start(s.start(), 1);
      for (const text of JSON.parse(s.moves())) mirror.play(text);
      this.mirror = mirror; // the page's game from here on: the page frees it when it changes games
    } catch (err) {
      mirror?.free();
      this.alert = `The board cannot follow the match: ${err.message}`;
      this.render();
      return false;
    }
    this.host.adopt(this.mirror, modeOf(s.start()));
    return true;
  }

  /** Stops playing (the saved state stays, so the link resumes the match). */
  leave(back) {
    this.releaseLock?.();
    this.releaseLock = null;
    clearInterval(this.timer);
    clearTimeout(this.reconnectTimer);
    this.timer = 0;
    this.reconnectTimer = 0;
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000, 'left');
      this.ws = null;
    }
    if (this.session) {
      this.session.free();
      this.session = null;
      this.mirror = null; // the page's game now: it frees it
      this.connection = '';
      if (back) {
        history.replaceState(null, '', location.pathname + location.search);
        this.host.leave();
      }
    }
    this.render();
  }

  /**
   * Removes the saved states of finished matches whose last frame the opponent has acknowledged, or that
   * ended a week ago: a finished match whose last frame (a resignation, an agreed draw) may not have
   * arrived keeps its state, so that opening its link again sends that frame again.
   */
  forgetFinished() {
    const week = 7 * 24 * 3600 * 1000;
    for (const key of store.keys()) {
      if (!key.startsWith(MATCH_PREFIX)) continue;
      try {
        const record = JSON.parse(store.get(key));
        const finished = record.phase === 'closed' || record.phase === 'aborted';
        const delivered = record.unacknowledged === 0 || !(Date.now() - record.saved < week);
        if (finished && delivered) store.remove(key);
      } catch {
        store.remove(key);
      }
    }
  }

  linkPath() {
    const params = new URLSearchParams({ join: this.session.invitation() });
    if (this.relay !== this.defaultRelay) params.set('relay', this.relay);
    return `${location.pathname}${location.search}#${params.toString()}`;
  }

  link() {
    return `${location.origin}${this.linkPath()}`;
  }

  copyLink() {
    const field = $('online-link');
    field.select();
    navigator.clipboard?.writeText(field.value).then(
      () => {
        this.note = 'Link copied: send it to your opponent over a channel you trust.';
        this.render();
      },
      () => document.execCommand?.('copy'),
    );
  }

  // ------------------------------------------------------------------------------------------ storage

  loadRecord(id) {
    const text = store.get(MATCH_PREFIX + id);
    if (!text) return null;
    try {
      const r = JSON.parse(text);
      if (r && r.v === 1 && typeof r.state === 'string' && typeof r.invitation === 'string') {
        return { state: r.state, relay: typeof r.relay === 'string' ? relayAddress(r.relay) : null };
      }
    } catch {
      /* refused below */
    }
    return { damaged: true };
  }

  /** Saves the session; false (and the frames held back) if the browser refuses. */
  persist() {
    const s = this.session;
    try {
      const state = s.saveState();
      // Unchanged since the last write (a dropped frame changes nothing; a stranger's Hello neither, since
      // candidates are not saved): nothing to write.
      if (this.saved && state === this.savedState && this.relay === this.savedRelay) return true;
      const record = {
        v: 1,
        invitation: s.invitation(),
        relay: this.relay,
        state,
        phase: s.phase(),
        unacknowledged: s.unacknowledged(),
        saved: Date.now(),
      };
      store.set(MATCH_PREFIX + s.matchId(), JSON.stringify(record));
      this.savedState = state;
      this.savedRelay = this.relay;
      if (!this.saved) this.note = 'The match is saved again.';
      this.saved = true;
    } catch (err) {
      this.saved = false;
      this.note = `The match cannot be saved in this browser (${err.message}): nothing is sent until it can.`;
    }
    return this.saved;
  }

  // ------------------------------------------------------------------------------------------- socket

  connect() {
    if (!this.session) return;
    const url = `${this.relay}/match/${this.session.matchId()}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (err) {
      this.connection = `cannot open ${url}: ${err.message}`;
      this.scheduleReconnect();
      this.render();
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.connection = `connecting to ${this.relay}…`;
    ws.onopen = () => {
      this.openedAt = Date.now();
      this.connection = `connected to ${this.relay}`;
      this.log.push({ type: 'open' });
      this.resend();
      this.render();
    };
    ws.onmessage = (e) => this.onMessage(e.data);
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      const stable = this.openedAt && Date.now() - this.openedAt >= STABLE_MS;
      this.openedAt = 0;
      if (stable) this.attempt = 0;
      const why = e.code === 4008 ? 'the match is full' : e.code === 1008 ? 'too many frames' : e.reason || `code ${e.code}`;
      this.log.push({ type: 'close', code: e.code });
      this.scheduleReconnect(why);
      this.render();
    };
  }

  scheduleReconnect(why = '') {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.connection = `relay connection lost${why ? ` (${why})` : ''}: reconnecting in ${delay / 1000} s`;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  /** Sends the unacknowledged frames again (on connecting, on `joined`, after a silence). */
  resend() {
    if (!this.session) return;
    this.session.retransmit();
    this.flush();
  }

  /** Sends what the session queued, once its state is saved. */
  flush() {
    const s = this.session;
    if (!s || !this.persist()) return;
    const open = this.ws && this.ws.readyState === WebSocket.OPEN;
    for (let frame = s.nextFrame(); frame !== undefined; frame = s.nextFrame()) {
      // Without a socket the frame is dropped here; the session keeps it until acknowledged and sends
      // it again on the next connection.
      if (open) {
        this.ws.send(frame);
        this.lastTraffic = Date.now();
      }
    }
  }

  onMessage(data) {
    if (!this.session) return;
    if (typeof data === 'string') {
      if (data === 'joined') {
        this.log.push({ type: 'joined' });
        this.resend();
      }
      return;
    }
    this.attempt = 0;
    const len = data.byteLength;
    const events = JSON.parse(len > MAX_MESSAGE ? this.session.receiveOversize(len) : this.session.receive(new Uint8Array(data)));
    for (const e of events) this.onEvent(e);
    // A copy of a frame accepted lately, or a frame dropped because it does not authenticate, is silence
    // (PROTOCOL.md §6): a stranger who keeps sending must not keep us from retransmitting.
    const news = events.some((e) => e.type !== 'duplicate' && e.type !== 'dropped');
    if (news) this.lastTraffic = Date.now();
    this.flush();
    if (!news) {
      // Copies and dropped frames change nothing on the board: only the warning, if it changed.
      $('online-warning').textContent = this.warning;
      return;
    }
    this.host.refresh();
    this.render();
  }

  onEvent(e) {
    this.log.push(e);
    if (this.log.length > 500) this.log.splice(1, this.log.length - 400); // the first entry says how it began
    switch (e.type) {
      case 'moved':
        try {
          this.mirror.play(e.text);
        } catch (err) {
          this.alert = `The page’s board refused the move ${e.text} that the session accepted: ${err.message}`;
        }
        break;
      case 'dropped':
        // Not fatal: nothing that frame carried was played, and the match goes on (PROTOCOL.md §7).
        if (e.count >= DROPS_WARNED) {
          this.warning =
            `${e.count} frames from the relay did not authenticate and were ignored (the last: ${e.message}): ` +
            'someone other than your opponent may be writing to this match. Your game is not affected.';
        }
        break;
      case 'failure':
        if (e.fatal) {
          const meaning = MEANING[e.kind] ?? 'it breaks the protocol';
          this.alert =
            `Your opponent’s side sent a signed frame that breaks the rules: ${e.message} (${e.kind}): ${meaning}. ` +
            'The match is stopped, and nothing that frame carried was played.';
        } else {
          this.note = `Ignored a frame that came after the end (${e.message}).`;
        }
        break;
      case 'gameOver':
        if (e.reason === 'aborted' && !this.session.failure()) {
          this.note = 'Your opponent’s side stopped the match (its program found a frame of ours against the rules, or the player aborted).';
        }
        break;
      default:
        break;
    }
  }

  /** Every 500 ms: the silence rule, and saving again after a refused save. */
  tick() {
    const s = this.session;
    if (!s) return;
    if (!this.saved) this.flush();
    const live = s.phase() === 'handshake' || s.phase() === 'playing';
    if (live && s.unacknowledged() > 0 && Date.now() - this.lastTraffic >= RETRANSMIT_MS) {
      this.log.push({ type: 'retransmit' });
      this.resend();
      this.lastTraffic = Date.now();
    }
  }

  // --------------------------------------------------------------------------------- the player's acts

  /** Whether the match is over (closed or aborted). */
  over() {
    const phase = this.session?.phase();
    return phase === 'closed' || phase === 'aborted';
  }

  /** Whether the person at this page may move now (a click on the board). */
  myMove() {
    return this.session !== null && this.session.action() === 'move';
  }

  /** Plays a move text from a click; false (with the reason shown) if the session refused it. */
  play(text) {
    try {
      this.session.play(text);
    } catch (err) {
      this.note = `Not played: ${err.message}`;
      this.render();
      return false;
    }
    this.mirror.play(text);
    this.flush();
    this.render();
    return true;
  }

  act(f) {
    if (!this.session) return;
    try {
      f(this.session);
    } catch (err) {
      this.note = `Not now: ${err.message}`;
    }
    this.flush();
    this.host.refresh();
    this.render();
  }

  // ------------------------------------------------------------------------------------------- showing

  /** The status line of the page while a match is on. */
  status() {
    const s = this.session;
    const me = s.color();
    const result = s.result();
    if (result) {
      const r = JSON.parse(result);
      if (r.score === '*') return `Match stopped (${s.failure() ? 'a frame failed its check' : 'aborted'})`;
      const who = r.winner ? `${side(r.winner)} wins` : 'a draw';
      const you = r.winner ? (r.winner === me ? ' — you win' : ' — you lose') : '';
      return `Game over: ${r.score}, ${who} by ${REASONS[r.reason] ?? r.reason}${you}`;
    }
    if (s.phase() === 'handshake') {
      return s.peerIdentity() ? 'Agreeing keys with your opponent…' : 'Waiting for your opponent to open the link…';
    }
    const turn = this.mirror.turn();
    const check = this.mirror.inCheck() ? ', in check' : '';
    if (s.action() === 'answerDraw') return `Your opponent offers a draw: accept or decline (you play ${side(me)})`;
    if (turn === me) return `Your move (${side(me)})${check}`;
    return `${side(turn)} to move${check}: waiting for your opponent`;
  }

  render() {
    const s = this.session;
    $('online-setup').hidden = s !== null;
    $('online-match').hidden = s === null;
    $('online-alert').textContent = this.alert;
    $('online-warning').textContent = this.warning;
    $('online-note').textContent = this.note;
    if (!s) return;
    $('online-link').value = this.link();
    $('online-invite').hidden = s.phase() !== 'handshake';
    $('online-connection').textContent = this.connection;
    const safety = s.safetyNumber();
    $('online-safety').textContent = safety ? safety.match(/.{4}/g).join(' ') : 'not yet: the handshake is not done';
    $('online-safety').classList.toggle('pending', !safety);
    $('online-you').textContent = `You play ${side(s.color())}: ${describe(s.start())}`;
    $('online-status').textContent = this.status();
    const action = s.action();
    $('online-draw').disabled = action !== 'move';
    $('online-accept').disabled = action !== 'answerDraw';
    $('online-decline').disabled = action !== 'answerDraw';
    $('online-claim').disabled = s.claimable() === undefined;
    $('online-resign').disabled = s.phase() !== 'playing';
    this.host.setStatus(this.status());
  }

  /** The state the tests read. */
  snapshot() {
    const s = this.session;
    return {
      ready: this.ready,
      active: s !== null,
      phase: s?.phase() ?? null,
      action: s?.action() ?? null,
      color: s?.color() ?? null,
      safety: s?.safetyNumber() ?? null,
      shownSafety: $('online-safety').textContent,
      moves: s ? JSON.parse(s.moves()) : [],
      mirror: this.mirror ? JSON.parse(this.mirror.history()) : [],
      result: s?.result() ? JSON.parse(s.result()) : null,
      failure: s?.failure() ? JSON.parse(s.failure()) : null,
      alert: this.alert,
      warning: this.warning,
      dropped: s ? s.dropped() : 0,
      note: this.note,
      status: $('online-status').textContent,
      connection: this.connection,
      connected: this.ws?.readyState === WebSocket.OPEN,
      link: s ? this.link() : null,
      matchId: s?.matchId() ?? null,
      relay: this.relay,
      log: this.log.slice(),
    };
  }
}
