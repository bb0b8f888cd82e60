/**
 * The scan cues a picker hears without looking: a short high beep for an accepted scan, a short low buzz (and a
 * double vibration where the device has one) for a refused one. One AudioContext for the page, created on the
 * first cue: browsers allow sound only after the user has typed or tapped, which a scan is.
 */
let context: AudioContext | undefined;

function audio(): AudioContext | undefined {
  if (typeof window === 'undefined') return undefined;
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return undefined;
  try {
    context ??= new Ctor();
    if (context.state === 'suspended') void context.resume();
    return context;
  } catch {
    return undefined;
  }
}

function tone(frequency: number, seconds: number, type: OscillatorType, volume: number) {
  const ctx = audio();
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, ctx.currentTime);
  // A quick fade out, so the cue ends without a click.
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + seconds);
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + seconds);
}

export function successCue() {
  tone(1760, 0.08, 'sine', 0.2);
}

export function errorCue() {
  tone(140, 0.35, 'square', 0.25);
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') navigator.vibrate([80, 40, 80]);
}
