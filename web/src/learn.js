// Learning: the write-up's eight-lesson tutorial and its twelve mate studies, as tesseract-verify ships and
// proves them (the WebAssembly module's lessons(), studies(), Lesson and Study: the page has no copy).
//
// A lesson: the learner moves the taught piece (only its moves light up), the other side passes, the goal
// is checked after each move; next and back between lessons. A study: White to move mates in N; each move
// is judged by the mate solver in the engine's worker (a move that still mates is answered by the longest
// defence, one that does not by a refutation, shown; "Take back" tries again); a hint lights the piece
// that moves next in a solution. Progress is kept in localStorage (`tesseract.progress`), and a first
// visit offers the tutorial (`tesseract.welcome`). A composer's check asks the verifier whether any position
// is a sound mate in N (the unique key, or the cooks).

const PROGRESS = 'tesseract.progress';
const WELCOME = 'tesseract.welcome';
const $ = (id) => document.getElementById(id);

function readProgress() {
  try {
    const p = JSON.parse(localStorage.getItem(PROGRESS) ?? '{}');
    return { lessons: p.lessons ?? {}, studies: p.studies ?? {} };
  } catch {
    return { lessons: {}, studies: {} };
  }
}

const GOALS = {
  capture: 'Capture every black piece but the king.',
  reach: 'Bring the piece to the marked cell.',
  check: 'Give check to the black king.',
  promote: 'Promote every pawn.',
};

/**
 * The Learn panel. `host` is the page: { api, show(fen) (a board of its own for the lesson or study),
 * undo(plies), select(cell), position() (the board's text), refresh(), ask(message) -> Promise of the
 * worker's reply, leave() }.
 */
export class Learn {
  constructor(host) {
    this.host = host;
    this.lessons = JSON.parse(host.api.lessons());
    this.studies = JSON.parse(host.api.studies());
    this.progress = readProgress();
    this.opening = 0; // counts what was opened, so that a puzzle composed late does not replace it
    this.current = null; // {kind: 'lesson', number, game: Lesson, names: []} | {kind: 'study', number, whites: [], over}
    this.message = '';
    this.#lists();
    $('learn-hint').addEventListener('click', () => this.hint());
    $('learn-back').addEventListener('click', () => this.takeBack());
    $('learn-restart').addEventListener('click', () => this.restart());
    $('learn-prev').addEventListener('click', () => this.open(this.current.kind, this.current.number - 1));
    $('learn-next').addEventListener('click', () => this.open(this.current.kind, this.current.number + 1));
    $('learn-leave').addEventListener('click', () => host.leave());
    $('welcome-start').addEventListener('click', () => {
      localStorage.setItem(WELCOME, 'seen');
      $('welcome').hidden = true;
      this.open('lesson', 1);
    });
    $('welcome-dismiss').addEventListener('click', () => {
      localStorage.setItem(WELCOME, 'seen');
      $('welcome').hidden = true;
    });
    $('welcome').hidden = localStorage.getItem(WELCOME) !== null;
    $('daily').addEventListener('click', () => this.daily());
    $('judge').addEventListener('submit', (e) => {
      e.preventDefault();
      this.judge($('judge-fen').value, Number($('judge-n').value));
    });
    $('judge-here').addEventListener('click', () => {
      $('judge-fen').value = host.position();
    });
  }

  /** Today's date as YYYYMMDD, in UTC: the same puzzle for everyone on a day. */
  static today() {
    const d = new Date();
    return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
  }

  /** Opens the puzzle of the day (composed in the worker the first time, then kept for the day). */
  async daily(date = Learn.today()) {
    const key = `tesseract.daily.${date}`;
    const opening = (this.opening = (this.opening ?? 0) + 1);
    let puzzle = null;
    try {
      puzzle = JSON.parse(localStorage.getItem(key) ?? 'null');
    } catch {
      puzzle = null;
    }
    // A damaged or foreign entry is composed again.
    if (typeof puzzle?.fen !== 'string' || puzzle.number !== `daily:${date}` || !Array.isArray(puzzle.lineText)) puzzle = null;
    if (!puzzle) {
      $('daily').disabled = true;
      $('daily').textContent = 'Composing today’s puzzle…';
      try {
        puzzle = (await this.host.ask({ kind: 'daily', date })).puzzle;
        localStorage.setItem(key, JSON.stringify(puzzle));
      } catch (err) {
        this.host.fail(`the puzzle of the day: ${err.message ?? err}`);
        return;
      } finally {
        $('daily').disabled = false;
        this.#marks();
      }
    }
    if (opening !== this.opening) return; // something else was opened while the puzzle was composed
    this.close();
    this.message = '';
    this.current = { kind: 'study', number: puzzle.number, puzzle, whites: [], plies: [], busy: false };
    this.host.show(puzzle.fen, this);
    this.render();
  }

  /** The study shown's data (one of the twelve, or the puzzle of the day). */
  #study(c = this.current) {
    return c.puzzle ?? this.studies[c.number - 1];
  }

  /** The composer's check: the verifier's answer to "is this a sound mate in n?", from the worker. */
  async judge(fen, n) {
    $('judge-result').textContent = 'Checking…';
    $('judge-run').disabled = true;
    try {
      const { result } = await this.host.ask({ kind: 'judge', fen, n });
      $('judge-result').textContent = result.line ? `${result.text} Main line: ${result.line.join(' ')}.` : result.text;
      $('judge-result').dataset.verdict = result.verdict;
    } catch (err) {
      $('judge-result').textContent = String(err.message ?? err);
      $('judge-result').dataset.verdict = 'error';
    } finally {
      $('judge-run').disabled = false;
    }
  }

  #lists() {
    const fill = (id, kind, items) => {
      const box = $(id);
      box.replaceChildren();
      for (const item of items) {
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.number = String(item.number);
        b.title = item.title;
        b.dataset.title = item.title;
        b.addEventListener('click', () => this.open(kind, item.number));
        box.append(b);
      }
    };
    fill('lesson-list', 'lesson', this.lessons);
    fill('study-list', 'study', this.studies);
    this.#marks();
  }

  #marks() {
    for (const b of $('lesson-list').children) {
      const done = this.progress.lessons[b.dataset.number];
      b.textContent = `${b.dataset.number}${done ? ' ✓' : ''}`;
      b.setAttribute('aria-label', `Lesson ${b.dataset.number}: ${b.dataset.title}${done ? ', done' : ''}`);
      b.classList.toggle('done', !!done);
    }
    for (const b of $('study-list').children) {
      const done = this.progress.studies[b.dataset.number];
      b.textContent = `${b.dataset.number}${done ? ' ✓' : ''}`;
      b.setAttribute('aria-label', `Study ${b.dataset.number}: ${b.dataset.title}${done ? ', solved' : ''}`);
      b.classList.toggle('done', !!done);
    }
    const today = !!this.progress.studies[`daily:${Learn.today()}`];
    $('daily').classList.toggle('done', today);
    $('daily').textContent = `Puzzle of the day${today ? ' ✓' : ''}`;
  }

  #save(kind, number, value) {
    this.progress[kind === 'lesson' ? 'lessons' : 'studies'][number] = value;
    localStorage.setItem(PROGRESS, JSON.stringify(this.progress));
    this.#marks();
  }

  /** Opens lesson or study `number` (1-based); out of range, nothing happens. */
  open(kind, number) {
    const list = kind === 'lesson' ? this.lessons : this.studies;
    if (number < 1 || number > list.length) return;
    this.opening = (this.opening ?? 0) + 1;
    this.close();
    this.message = '';
    if (kind === 'lesson') {
      this.current = { kind, number, game: new this.host.api.Lesson(number), names: [] };
      this.host.show(this.current.game.fen(), this);
      this.#light();
    } else {
      this.current = { kind, number, whites: [], plies: [], busy: false };
      this.host.show(this.studies[number - 1].fen, this);
    }
    this.render();
  }

  /** A lesson teaches one piece "with its lines lit": its moves are shown without a click (the pawns
   *  lesson has two pieces: the learner picks one). */
  #light() {
    const pieces = JSON.parse(this.current.game.pieces());
    if (pieces.length === 1) this.host.select(pieces[0]);
  }

  /** Leaves the lesson or study shown (the page then shows a game of its own). */
  close() {
    if (this.current?.kind === 'lesson') this.current.game.free();
    this.current = null;
    this.#dom();
  }

  /** Whether the person may move now. */
  canMove() {
    const c = this.current;
    if (!c) return false;
    return c.kind === 'lesson' ? !c.game.done() : !c.busy && !c.over;
  }

  /** The moves from `cell` the person may play (JSON text as Chess.movesFrom), or null to ask the board. */
  movesFrom(cell) {
    return this.current?.kind === 'lesson' ? this.current.game.movesFrom(cell) : null;
  }

  /** Whether the lesson or study is over (solved, refuted, goal met). */
  over() {
    const c = this.current;
    return c ? (c.kind === 'lesson' ? c.game.done() : !!c.over) : false;
  }

  /** The target cell of a "reach" lesson, for the board to mark; -1 otherwise. */
  target() {
    const c = this.current;
    if (c?.kind !== 'lesson') return -1;
    return this.lessons[c.number - 1].target ?? -1;
  }

  /** Plays the person's move text. */
  async play(text, mirror) {
    const c = this.current;
    if (c.kind === 'lesson') {
      let done;
      try {
        const name = moveName(mirror, text);
        done = c.game.play(text);
        c.names.push(name);
      } catch (err) {
        this.message = String(err.message ?? err);
        this.render();
        return 'illegal';
      }
      this.host.show(c.game.fen(), this);
      if (!done) this.#light();
      if (done) {
        this.#save('lesson', c.number, c.game.count());
        const bound = this.lessons[c.number - 1].bound;
        this.message = `Done in ${c.game.count()} move${c.game.count() === 1 ? '' : 's'}${c.game.count() <= bound ? '' : ` (it can be done in ${bound})`}.`;
      } else this.message = '';
      this.render();
      return done ? 'end' : 'move';
    }
    c.busy = true;
    this.message = 'Checking your move…';
    this.render();
    let reply;
    try {
      reply = await this.host.ask({ kind: 'study', number: c.number, whites: c.whites, action: 'play', text });
    } catch (err) {
      if (this.current !== c) return null; // the study was left while the solver thought
      c.busy = false;
      this.message = String(err.message ?? err);
      this.render();
      return 'illegal';
    }
    if (this.current !== c) return null;
    c.busy = false;
    c.whites.push(text);
    c.plies.push(reply.reply.defence ? 2 : 1);
    mirror.play(reply.reply.white);
    if (reply.reply.defence) mirror.play(reply.reply.defence);
    const study = this.#study(c);
    if (reply.reply.reply === 'solved') {
      c.over = true;
      c.solved = true;
      this.#save('study', c.number, reply.reply.moves);
      this.message = `Solved in ${reply.reply.moves}! ${study.idea}`;
    } else if (reply.reply.reply === 'refuted') {
      c.over = true;
      this.message = reply.reply.defence
        ? `Black answers ${reply.reply.defenceName}, and there is no mate in ${study.n} any more. Take back and try again.`
        : `That does not mate in ${study.n}. Take back and try again.`;
    } else this.message = `Black defends with ${reply.reply.defenceName}.`;
    this.render();
    return reply.reply.reply === 'solved' ? 'mate' : reply.reply.reply === 'refuted' ? 'illegal' : 'move';
  }

  /** Lights the piece that moves next in a solution. */
  async hint() {
    const c = this.current;
    if (c?.kind !== 'study' || c.busy || c.over) return;
    c.busy = true;
    this.render();
    let cell = null;
    try {
      cell = (await this.host.ask({ kind: 'study', number: c.number, whites: c.whites, action: 'hint' })).cell;
    } catch (err) {
      if (this.current !== c) return;
      this.message = String(err.message ?? err);
    }
    c.busy = false;
    if (this.current !== c) return;
    if (cell !== null) {
      this.message = 'The piece to move is lit.';
      this.host.select(cell);
    }
    this.render();
  }

  /** Takes back White's last move and Black's answer (a study). */
  takeBack() {
    const c = this.current;
    if (c?.kind !== 'study' || c.busy || c.whites.length === 0) return;
    c.whites.pop();
    this.host.undo(c.plies.pop());
    c.over = false;
    c.solved = false;
    this.message = '';
    this.render();
  }

  restart() {
    const c = this.current;
    if (!c) return;
    if (c.puzzle) this.daily(Number(c.number.slice(6)));
    else this.open(c.kind, c.number);
  }

  /** The status line while a lesson or study is shown. */
  status() {
    const c = this.current;
    if (c.kind === 'lesson') return `Tutorial, lesson ${c.number} of ${this.lessons.length}${c.game.done() ? ': done' : ''}`;
    const s = this.#study(c);
    const how = c.over ? (c.solved ? 'solved' : 'refuted') : c.busy ? 'checking your move' : `White to move mates in ${s.n}`;
    return c.puzzle ? `${c.puzzle.title}: ${how}` : `Study ${c.number} of ${this.studies.length}: ${how}`;
  }


  /** The moves' names in a lesson (the board shows only the position: the other side passes). */
  names() {
    return this.current?.kind === 'lesson' ? this.current.names : null;
  }

  render() {
    this.#dom();
    if (this.current) this.host.refresh();
  }

  #dom() {
    const c = this.current;
    $('learn-panel').hidden = !c;
    for (const b of [...$('lesson-list').children, ...$('study-list').children]) {
      b.classList.toggle('current', !!c && b.parentElement.id === `${c.kind}-list` && Number(b.dataset.number) === c.number);
    }
    if (!c) return;
    const lesson = c.kind === 'lesson' ? this.lessons[c.number - 1] : null;
    const study = c.kind === 'study' ? this.#study(c) : null;
    $('learn-title').textContent = (lesson ?? study).title;
    $('learn-message').classList.toggle('bad', c.kind === 'study' && !!c.over && !c.solved);
    $('learn-text').textContent = lesson ? lesson.explain : `White to move mates in ${study.n}. Play White's moves; the page plays Black's best defence.`;
    $('learn-task').textContent = lesson
      ? `${GOALS[lesson.goal]} Par: ${lesson.bound} move${lesson.bound === 1 ? '' : 's'}. Moves so far: ${c.game.count()}.`
      : `White's moves left: ${study.n - c.whites.length}.`;
    $('learn-message').textContent = this.message;
    $('learn-hint').hidden = !study;
    $('learn-back').hidden = !study;
    $('learn-hint').disabled = !study || c.busy || c.over;
    $('learn-back').disabled = !study || c.busy || c.whites.length === 0;
    const list = lesson ? this.lessons : this.studies;
    $('learn-prev').disabled = !!c.puzzle || c.number <= 1;
    $('learn-next').disabled = !!c.puzzle || c.number >= list.length;
  }

  /** For tests: the state of the Learn panel. */
  snapshot() {
    const c = this.current;
    return {
      kind: c?.kind ?? null,
      number: c?.number ?? null,
      over: this.over(),
      busy: !!c?.busy,
      message: this.message,
      progress: this.progress,
    };
  }
}

/** The readable name of the legal move `text` in `game` (SAN, or the long form in 4D); `text` if not legal. */
export function moveName(game, text) {
  const after = game.at(JSON.parse(game.history()).length);
  try {
    after.play(text);
    return JSON.parse(after.notation()).at(-1);
  } catch {
    return text;
  } finally {
    after.free();
  }
}
