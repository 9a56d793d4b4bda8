// A small WebAudio synthesizer for the game's events: a few oscillator notes a sound, no audio files.
//
//   move     a short soft click            capture  a lower, brighter knock
//   check    two rising notes              mate     a falling three-note figure
//   illegal  a low buzz                    end      one long note (a draw, or the end of Four Tac Toe)
//
// The AudioContext is created at the first sound (browsers start one only after a user gesture; a
// sound asked for before that is skipped). Muting is remembered in localStorage.

const KEY = 'tesseract.sound';

// Each sound: notes [frequency Hz, start s, length s, waveform, peak gain].
const SOUNDS = {
  move: [[660, 0, 0.06, 'triangle', 0.25]],
  capture: [
    [220, 0, 0.09, 'square', 0.18],
    [440, 0.01, 0.08, 'triangle', 0.2],
  ],
  check: [
    [660, 0, 0.09, 'sine', 0.25],
    [880, 0.1, 0.12, 'sine', 0.25],
  ],
  mate: [
    [880, 0, 0.14, 'sine', 0.28],
    [660, 0.15, 0.14, 'sine', 0.28],
    [440, 0.3, 0.35, 'sine', 0.3],
  ],
  illegal: [[110, 0, 0.16, 'sawtooth', 0.12]],
  end: [[523, 0, 0.4, 'sine', 0.22]],
};

export const SOUND_KINDS = Object.keys(SOUNDS);

export class Synth {
  constructor() {
    this.context = null;
    this.muted = localStorage.getItem(KEY) === 'off';
    this.log = []; // the kinds played, in order (for tests and tools)
  }

  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem(KEY, muted ? 'off' : 'on');
  }

  /** Plays one of SOUND_KINDS, unless muted; returns whether it was played. */
  play(kind) {
    const notes = SOUNDS[kind];
    if (!notes || this.muted) return false;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    try {
      this.context ??= new Context();
      if (this.context.state === 'suspended') this.context.resume().catch(() => {});
      const ctx = this.context;
      const now = ctx.currentTime;
      for (const [frequency, at, length, type, peak] of notes) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = type;
        osc.frequency.value = frequency;
        // A quick attack and an exponential decay: no clicks at the ends.
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(peak, now + at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now + at);
        osc.stop(now + at + length + 0.02);
      }
    } catch {
      return false;
    }
    this.log.push(kind);
    return true;
  }
}
