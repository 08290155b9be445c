#!/usr/bin/env node
// A learner's slow-start balancer in JavaScript (Node), as a course would
// receive one:
//
//   node learner.mjs [FILE] [--mistake ID] [--misbehave KIND]
//
// Reads a script (stdin, or FILE) and prints what the SPEC says: WEIGHTS and
// PICK lines on stdout, "line N: ..." on stderr for each rejected line, exit 1
// when a line was rejected. Written from the SPEC alone (no engine code).
// Bytes are handled as latin1 strings (one char per byte), so any input
// goes through unchanged.
//
// --batch (after --mistake) runs a JSON list of scripts from stdin in one
// process, for the tests (see batch()).
// --mistake ID makes one classic mistake of the engine's catalogue, as a
// learner would make it; --misbehave KIND misbehaves as a submission can:
// crash, throw, hang, hang-child, flood, stderr, exit-3, exit-0, float-weights
// (a real division for the ramp, never rounded down: "b=2.5").
import { spawn } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';

const MAX_WEIGHT = 1_000_000n;
const MAX_TIME = 10n ** 12n;
const KEYWORDS = { POOL: [0, Infinity], NOW: [1, 1], ADD: [2, 2], DOWN: [1, 1], UP: [2, 2], WEIGHTS: [0, 0], PICK: [0, 0] };
const utf8 = new TextDecoder('utf-8', { fatal: true });

class Rejected extends Error {}

function quantity(token, limit, what) {
  if (!/^[0-9]+$/.test(token)) throw new Rejected(`${what} must be a non-negative integer`);
  const value = BigInt(token);
  if (value > limit) throw new Rejected(`${what} is too large`);
  return Number(value);
}

function checkName(name) {
  let text;
  try {
    text = utf8.decode(Buffer.from(name, 'latin1'));
  } catch {
    throw new Rejected('name is not valid UTF-8');
  }
  for (const ch of text) {
    const c = ch.codePointAt(0);
    const bidi = (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x200e || c === 0x200f || c === 0x061c;
    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || bidi || ch === '=') throw new Rejected('bad backend name');
  }
  if (!text) throw new Rejected('bad backend name');
  return name;
}

function entry(token) {
  const parts = token.split('=');
  if (parts.length !== 2) throw new Rejected('expected <name>=<weight>');
  return [checkName(parts[0]), quantity(parts[1], MAX_WEIGHT, 'weight')];
}

class Balancer {
  constructor(mistake, floatWeights = false) {
    this.m = mistake;
    this.floatWeights = floatWeights;
    this.pool = [];
    this.now = 0;
  }

  find(name) {
    return this.pool.find((b) => b.name === name) ?? null;
  }

  rampWeight(b) {
    const { target: t, ramp: r } = b;
    const m = this.m;
    let elapsed = Math.max(0, this.now - b.joined);
    if (m === 'no-clamp') elapsed = this.now - b.joined;
    if (m === 'from-clock-zero') elapsed = this.now;
    // pool-ramped: ramp 0 "avoided" as a divisor, target * min(elapsed, 0) / max(0, 1) = 0.
    if (r === 0) return m === 'pool-ramped' ? 0 : t;
    const e = m === 'no-cap' ? elapsed : Math.min(elapsed, r);
    // target × elapsed can pass 2^53: exact with BigInt.
    const [T, E, R] = [BigInt(t), BigInt(e), BigInt(r)];
    const floorDiv = (a, d) => (a >= 0n ? a / d : -((-a + d - 1n) / d));
    switch (m) {
      case 'round-up':
        return Number((T * E + R - 1n) / R);
      case 'round-nearest':
        return Number((2n * T * E + R) / (2n * R));
      case 'divide-first':
        return Number(T * (E / R));
      case 'floating-point':
        return Math.floor((t * e) / r);
      case 'overflow-32-bit':
        return Math.trunc(((t * e) | 0) / r);
    }
    if (this.floatWeights) return (t * e) / r;
    const w = Number(floorDiv(T * E, R));
    return m === 'at-least-one' && w === 0 && t > 0 ? 1 : w;
  }

  weight(b) {
    if (!b.up && this.m !== 'down-shows-weight' && this.m !== 'down-takes-part') return 0;
    return this.rampWeight(b);
  }

  takesPart(b) {
    if (this.m === 'weight-zero-takes-part') return b.up;
    if (this.m === 'down-takes-part') return this.weight(b) > 0;
    if (this.m === 'pick-ignores-ramp') return b.up && b.target > 0;
    return b.up && this.weight(b) > 0;
  }

  pick() {
    const m = this.m;
    const parts = this.pool.filter((b) => this.takesPart(b));
    const fed = new Map(parts.map((b) => [b, m === 'pick-ignores-ramp' ? b.target : this.weight(b)]));
    if (m === 'highest-weight-wins') {
      let best = null;
      for (const b of parts) if (best === null || fed.get(b) > fed.get(best)) best = b;
      return best;
    }
    for (const b of this.pool) {
      if (fed.has(b)) continue;
      if (m === 'others-reset') b.score = 0;
      if (m === 'others-decay') b.score = Math.trunc(b.score / 2);
    }
    let best = m === 'first-backend-default' && this.pool.length ? this.pool[0] : null;
    let total = 0;
    for (const b of parts) {
      b.score += fed.get(b);
      total += fed.get(b);
      if (best === null || b.score > best.score || (m === 'ties-to-last' && b.score === best.score)) best = b;
    }
    if (best) {
      if (m === 'winner-pays-own-weight') best.score -= fed.get(best);
      else if (m !== 'no-subtract') best.score -= total;
    }
    return best;
  }

  run(words) {
    const m = this.m;
    const [op, ...args] = words;
    const [low, high] = KEYWORDS[op];
    if (args.length < low || (args.length > high && m !== 'extra-words-ignored')) throw new Rejected('wrong number of arguments');
    const fresh = (name, target, ramp) => ({ name, target, ramp, joined: this.now, up: true, score: 0 });
    switch (op) {
      case 'POOL': {
        if (!args.length && m === 'bare-pool-rejected') throw new Rejected('POOL needs backends');
        const old = new Map(this.pool.map((b) => [b.name, b.score]));
        if (m === 'bad-pool-applied') this.pool = [];
        const next = [];
        const seen = new Set();
        for (const token of args) {
          const [name, weight] = entry(token);
          if (seen.has(name)) throw new Rejected('duplicate name');
          seen.add(name);
          const b = fresh(name, weight, 0);
          if (m === 'pool-keeps-scores') b.score = old.get(name) ?? 0;
          next.push(b);
          if (m === 'bad-pool-applied') this.pool.push(b);
        }
        this.pool = next;
        return null;
      }
      case 'NOW': {
        const value = quantity(args[0], MAX_TIME, 'time');
        this.now = m === 'now-adds' ? Math.min(this.now + value, Number(MAX_TIME)) : value;
        return null;
      }
      case 'ADD': {
        const [name, weight] = entry(args[0]);
        const ramp = quantity(args[1], MAX_TIME, 'ramp');
        const old = this.find(name);
        const b = fresh(name, weight, ramp);
        if (old && m !== 'add-appends-duplicate') {
          if (m === 'no-reset-on-join') b.score = old.score;
          this.pool[this.pool.indexOf(old)] = b;
        } else {
          this.pool.push(b);
        }
        return null;
      }
      case 'DOWN': {
        const b = this.find(args[0]);
        if (!b) throw new Rejected('no backend named that');
        b.up = false;
        return null;
      }
      case 'UP': {
        const b = this.find(args[0]);
        const ramp = quantity(args[1], MAX_TIME, 'ramp');
        if (!b) throw new Rejected('no backend named that');
        if (b.up && m === 'up-no-restart') return null;
        Object.assign(b, { up: true, ramp, joined: this.now });
        if (m !== 'no-reset-on-join' && m !== 'up-keeps-score') b.score = 0;
        return null;
      }
      case 'WEIGHTS': {
        if (!this.pool.length && m === 'empty-weights-silent') return null;
        const order = [...this.pool];
        // Plain string comparison of latin1 strings is byte order.
        const bytes = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
        const lower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase()); // ASCII only, as bytes
        if (m === 'weights-ignore-case') order.sort((a, b) => bytes(lower(a.name), lower(b.name)));
        else if (m !== 'weights-pool-order') order.sort((a, b) => bytes(a.name, b.name));
        return order.map((b) => `${b.name}=${this.weight(b)}`).join(' ');
      }
      case 'PICK': {
        const winner = this.pick();
        return winner ? winner.name : 'NONE';
      }
    }
    return null;
  }
}

function wordsOf(line, m) {
  if (m === 'tabs-in-words') return line.split(' ').filter((w) => w);
  if (m === 'split-each-space') return line.split(' ');
  // /\s+/: any Unicode blank separates words (the line is UTF-8 read as latin1).
  if (m === 'any-blank-separates')
    return Buffer.from(line, 'latin1').toString('utf8').split(/\s+/).filter((w) => w).map((w) => Buffer.from(w, 'utf8').toString('latin1'));
  return line.split(/[ \t]+/).filter((w) => w);
}

/** Runs one script: `out` and `err` take its stdout and stderr (latin1 text); returns the exit status. */
function runScript(data, mistake, misbehave, out, err) {
  if (data.startsWith('\xef\xbb\xbf')) data = data.slice(3);
  const lines = data.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const balancer = new Balancer(mistake, misbehave === 'float-weights');
  let rejected = 0;
  lines.forEach((raw, i) => {
    let line = raw;
    if (line.endsWith('\r') && mistake !== 'keep-cr') line = line.slice(0, -1);
    if (!line.replace(/[ \t]/g, '')) return;
    let words = wordsOf(line, mistake);
    if (!words.length || words[0].startsWith('#')) return;
    if (mistake === 'trailing-comments' && line.includes('#')) {
      words = wordsOf(line.split('#')[0], mistake);
      if (!words.length) return;
    }
    if (mistake === 'any-case-keywords') words[0] = words[0].toUpperCase();
    let printed;
    try {
      if (!Object.hasOwn(KEYWORDS, words[0]) || words.some((w) => w === '')) throw new Rejected('unknown command');
      printed = balancer.run(words);
    } catch (e) {
      if (!(e instanceof Rejected)) throw e;
      rejected++;
      err(`line ${i + 1}: ${e.message}\n`);
      return;
    }
    if (printed === null) return;
    out(`${printed}\n`);
    if (misbehave === 'crash') process.kill(process.pid, 'SIGSEGV');
    if (misbehave === 'throw') throw new Error('something went wrong in my balancer');
    if (misbehave === 'hang') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    if (misbehave === 'flood') for (;;) out(`${'x'.repeat(65536)}\n`);
  });
  if (misbehave === 'stderr') err('debug: ' + 'y'.repeat(200) + '\n' + 'noise\n'.repeat(20000));
  return misbehave === 'exit-3' ? 3 : misbehave === 'exit-0' ? 0 : rejected ? 1 : 0;
}

/**
 * --batch: stdin is a JSON list of scripts (base64); stdout a JSON list of
 * {out (base64), err, status}, one per script, as separate runs give them.
 */
function batch(mistake) {
  const results = JSON.parse(readFileSync(0, 'utf8')).map((script) => {
    let out = '';
    let err = '';
    const status = runScript(Buffer.from(script, 'base64').toString('latin1'), mistake, null, (t) => (out += t), (t) => (err += t));
    return { out: Buffer.from(out, 'latin1').toString('base64'), err, status };
  });
  writeSync(1, JSON.stringify(results));
}

function main() {
  const args = process.argv.slice(2);
  let mistake = null;
  let misbehave = null;
  let path = null;
  while (args.length) {
    const a = args.shift();
    if (a === '--mistake') mistake = args.shift();
    else if (a === '--misbehave') misbehave = args.shift();
    else if (a === '--batch') return batch(mistake);
    else path = a;
  }
  // A child that outlives us, holding our stdout open.
  if (misbehave === 'hang-child') spawn('sleep', ['3600'], { stdio: 'inherit' }).unref();
  const data = readFileSync(path ?? 0).toString('latin1');
  const out = (text) => writeSync(1, Buffer.from(text, 'latin1'));
  process.exitCode = runScript(data, mistake, misbehave, out, (text) => process.stderr.write(text));
}

main();
