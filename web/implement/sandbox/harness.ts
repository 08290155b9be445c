/**
 * The harness: JavaScript that runs *inside* QuickJS, in each fresh context,
 * before the learner's code. It calls the learner's functions and turns
 * whatever they do into numbers and short strings the host copies out, so
 * no object of the learner's ever reaches the host.
 *
 * The learner's code runs in the same realm afterwards and may replace any
 * global or prototype method, so the harness captures what it needs first
 * (`apply`, `defineProperty`, `JSON.stringify`, ...) and avoids every
 * operation that consults a prototype the learner can reach: it builds
 * arrays with `defineProperty` (an inherited setter cannot intercept it),
 * its descriptors and reports have a null prototype (no inherited `get` or
 * `toJSON`), and it never iterates with `for...of` or calls methods on
 * values. Sabotage can only hurt the learner's own results: whatever goes
 * wrong in here reaches the host as a failed call, which the host reports
 * as a problem (never as a pass).
 *
 * Every entry point returns a number when all went well, or a JSON string
 * describing what went wrong (`HarnessReport` below). Texts are capped at
 * `MAX_TEXT` characters, and a report lists at most `MAX_NOTES` scores.
 *
 * The source is a plain string (not a stringified TypeScript function) so
 * that what QuickJS evaluates is exactly what is written here, whatever the
 * bundler or minifier does.
 */
import { NO_WINNER } from '../../api/winners.js';
import { LOOP_MARK } from './loop-marks.js';

/** The file name QuickJS gives the learner's code in stack traces. */
export const LEARNER_FILE = 'your-code.js';
/** Longest text (a message, a quoted string) the harness copies into a report. */
export const MAX_TEXT = 300;
/** Most score problems one pick reports. */
export const MAX_NOTES = 20;
/**
 * Memory the harness holds back and frees before describing an exception,
 * so that "out of memory" can still be described when the learner's data
 * filled the heap.
 */
export const RESERVE_BYTES = 256 * 1024;
/**
 * Free memory the host needs in QuickJS's heap around a call: handles,
 * argument arrays, the report it copies out (checked for on top). The
 * wrapper quickjs-emscripten puts around QuickJS does not check those
 * allocations, so the heap must never be full when the host makes them:
 * every entry point checks that this much can still be allocated before it
 * returns ("exhausted" otherwise), and the host checks with `room(bytes)`
 * first before passing more (a large pool, a long name).
 */
export const HEADROOM_BYTES = 16 * 1024;

/** What a harness entry point returns when something went wrong (as JSON). */
export interface HarnessReport {
  /**
   * The learner's function threw: "Name: message" for an error (any value
   * with a string name and message), "threw <the value>" otherwise.
   */
  threw?: string;
  /** Line of the learner's code the exception came from (0: unknown). */
  line?: number;
  /** The learner's function returned something that is not a number (or, for pick, not a backend). */
  returned?: string;
  /** pick / onJoin: scores that are not numbers, by backend index. */
  scores?: Record<string, string>;
  /** The heap is (nearly) full: the host must not call again. */
  exhausted?: boolean;
  /**
   * pick returned an index, but the array it was given holds another
   * backend there now (it sorted or otherwise reordered it in place): the
   * index is read in pool order, which is not what the learner meant.
   */
  reordered?: boolean;
}

/** Bits `bind()` returns: which functions the learner's code defines. */
export const HAS_EFFECTIVE_WEIGHT = 1;
export const HAS_PICK = 2;
export const HAS_ON_JOIN = 4;

/**
 * An expression: evaluated, it gives the entry points
 * `{ bind, report, room, weight, name, pick, join }`. The host reads them once,
 * before the learner's code runs, and never touches the object again.
 */
export const HARNESS_SOURCE = String.raw`(function () {
  'use strict';
  const MAX_TEXT = ${MAX_TEXT};
  const MAX_NOTES = ${MAX_NOTES};
  const NO_WINNER = ${NO_WINNER};
  const RESERVE_BYTES = ${RESERVE_BYTES};
  const HEADROOM_BYTES = ${HEADROOM_BYTES};
  const CODE_FILE = '${LEARNER_FILE}:';
  const apply = Reflect.apply;
  const protoOf = Reflect.getPrototypeOf;
  const define = Reflect.defineProperty;
  const isArray = Array.isArray;
  const toText = String;
  const slice = String.prototype.slice;
  const indexOf = String.prototype.indexOf;
  const codeAt = String.prototype.charCodeAt;
  const HEX = '0123456789abcdef';
  const F64 = Float64Array;
  const Bytes = ArrayBuffer;
  const NaN_ = NaN;
  // Each loop of the learner's writes its line here (loop-marks.ts): a plain
  // number the host reads when time runs out, never a getter or a setter.
  define(globalThis, '${LOOP_MARK}', { __proto__: null, value: 0, writable: true, enumerable: false, configurable: false });
  let reserve = new Bytes(RESERVE_BYTES);
  let effectiveWeightFn, pickFn, onJoinFn;
  const names = [];

  function put(target, key, value) {
    define(target, key, { __proto__: null, value: value, writable: true, enumerable: true, configurable: true });
  }
  function hasRoom(bytes) {
    try {
      new Bytes(bytes); // freed at once (reference counting)
      return true;
    } catch (e) {
      return false;
    }
  }
  function refill() {
    if (reserve === null) {
      try { reserve = new Bytes(RESERVE_BYTES); } catch (e) { /* still full: try again next call */ }
    }
  }
  function cap(s) {
    return s.length > MAX_TEXT ? apply(slice, s, [0, MAX_TEXT]) + '… (' + s.length + ' characters)' : s;
  }
  // A JSON string literal, built by hand: JSON.stringify and regular
  // expressions make arrays inside QuickJS that an Array.prototype setter
  // could intercept.
  function quote(s) {
    let out = '"';
    for (let i = 0; i < s.length; i++) {
      const c = apply(codeAt, s, [i]);
      if (c === 34) out += '\\"';
      else if (c === 92) out += '\\\\';
      else if (c < 32 || (c >= 0xd800 && c <= 0xdfff)) {
        out += '\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
      } else out += s[i];
    }
    return out + '"';
  }
  function quoteCapped(s) {
    return s.length > MAX_TEXT ? quote(apply(slice, s, [0, MAX_TEXT])) + '… (' + s.length + ' characters)' : quote(s);
  }
  // A value, without calling anything of the learner's.
  function describe(v) {
    switch (typeof v) {
      case 'string': return quoteCapped(v);
      case 'number': return toText(v);
      case 'bigint': return toText(v) + 'n';
      case 'boolean': return v ? 'true' : 'false';
      case 'undefined': return 'undefined';
      case 'symbol': return toText(v);
      case 'function': return 'a function';
      default:
        if (v === null) return 'null';
        try {
          if (isArray(v)) return 'an array';
          if (protoOf(v) === null) return 'an object with no prototype';
        } catch (e) { /* a revoked Proxy, or a trap that throws */ }
        return 'an object';
    }
  }
  // The line in "... at pick (your-code.js:12:5)": the first frame in the learner's code.
  function lineOf(stack) {
    const at = apply(indexOf, stack, [CODE_FILE]);
    if (at < 0) return 0;
    let line = 0;
    for (let i = at + CODE_FILE.length; i < stack.length && line < 1e9; i++) {
      const c = apply(codeAt, stack, [i]);
      if (c < 48 || c > 57) break;
      line = line * 10 + (c - 48);
    }
    return line;
  }
  // What an exception is: "Name: message" for an error (anything with a
  // string name and message), "threw <the value>" otherwise. Each exception
  // thrown while reading one is described one level less deep; at depth 0
  // nothing of the value is read.
  // (wasError: whether the last exceptionText described an error.)
  let wasError = false;
  function exceptionText(e, depth) {
    wasError = false;
    if (depth === 0 || e === null || (typeof e !== 'object' && typeof e !== 'function')) return 'threw ' + describe(e);
    let name, message;
    try {
      name = e.name;
      message = e.message;
    } catch (inner) {
      const text = 'threw ' + describe(e) + ' whose name or message cannot be read (reading them ' + exceptionText(inner, depth - 1) + ')';
      wasError = false;
      return text;
    }
    if (typeof name === 'string' && typeof message === 'string') {
      wasError = true;
      return 'threw ' + (message === '' ? cap(name) : cap(name) + ': ' + cap(message));
    }
    return 'threw ' + describe(e) + (typeof message === 'string' ? ' with message ' + quoteCapped(message) : '');
  }
  function threw(e) {
    // Out of memory (QuickJS may even throw null when it cannot make the
    // error): the host stops the session. The held-back memory goes to the
    // description.
    const full = !hasRoom(HEADROOM_BYTES);
    reserve = null;
    let line = 0;
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      try {
        const stack = e.stack;
        if (typeof stack === 'string') line = lineOf(stack);
      } catch (inner) { /* a stack getter that throws: no line */ }
    }
    let text = exceptionText(e, 2);
    // An error reads "TypeError: ..." on its own; anything else "threw ...".
    if (wasError) text = apply(slice, text, [6]);
    return '{"threw":' + quote(text) + ',"line":' + line + (full ? ',"exhausted":true}' : '}');
  }
  function returned(text) {
    return '{"returned":' + quote(text) + '}';
  }
  function unreadable(e) {
    return 'a value that cannot be read (reading it ' + exceptionText(e, 2) + ')';
  }
  // Every entry point returns through here: a number or a report, plus
  // "exhausted" when the host could not safely copy the report out and make
  // its next call.
  function done(result) {
    if (hasRoom(HEADROOM_BYTES + (typeof result === 'string' ? 3 * result.length : 0))) return result;
    reserve = null;
    if (typeof result === 'number') return '{"exhausted":true}';
    return apply(slice, result, [0, result.length - 1]) + ',"exhausted":true}';
  }
  // The index of the backend named \`name\`, or NO_WINNER when there is none.
  function nameIndex(name, n) {
    for (let i = 0; i < n; i++) if (names[i] === name) return i;
    return NO_WINNER;
  }

  return {
    // After the learner's code: which functions it defines.
    bind() {
      let bits = 0;
      try {
        if (typeof effectiveWeight === 'function') { effectiveWeightFn = effectiveWeight; bits |= ${HAS_EFFECTIVE_WEIGHT}; }
        if (typeof pick === 'function') { pickFn = pick; bits |= ${HAS_PICK}; }
        if (typeof onJoin === 'function') { onJoinFn = onJoin; bits |= ${HAS_ON_JOIN}; }
      } catch (e) {
        return done(threw(e));
      }
      return done(bits);
    },
    // An exception the learner's top-level code threw.
    report(e) {
      return done(threw(e));
    },
    // 1 when that many more bytes can be allocated (before a pick of a large pool).
    room(bytes) {
      return hasRoom(bytes) ? 1 : 0;
    },
    weight(target, ramp, joined, now) {
      refill();
      let w;
      try {
        w = apply(effectiveWeightFn, undefined, [target, ramp, joined, now]);
      } catch (e) {
        return done(threw(e));
      }
      return done(typeof w === 'number' ? w : returned(describe(w)));
    },
    // The name of backend i, sent when the pool changes.
    name(i, name) {
      put(names, i, name);
      return done(0);
    },
    // data: Float64 [weight, score, up] per backend, then a slot for the
    // winner. Scores and the winner are written back into it.
    pick(data, n) {
      refill();
      const f = new F64(data);
      const backends = [];
      const own = [];
      for (let i = 0; i < n; i++) {
        const b = { name: names[i], up: f[3 * i + 2] === 1, weight: f[3 * i], score: f[3 * i + 1] };
        put(backends, i, b);
        put(own, i, b);
      }
      let r;
      try {
        r = apply(pickFn, undefined, [backends]);
      } catch (e) {
        return done(threw(e));
      }
      // The objects handed out, not the array: the learner may have changed it.
      let notes = '', count = 0;
      for (let i = 0; i < n; i++) {
        let s, text = null;
        try {
          s = own[i].score;
          if (typeof s !== 'number') text = describe(s);
        } catch (e) {
          text = unreadable(e);
        }
        if (text === null) { f[3 * i + 1] = s; continue; }
        f[3 * i + 1] = NaN_;
        if (count < MAX_NOTES) {
          notes += (count === 0 ? '"' : ',"') + i + '":' + quote(text);
          count++;
        }
      }
      let winner = NO_WINNER, problem = null, reordered = false;
      if (r === null || r === undefined) winner = NO_WINNER;
      else if (typeof r === 'number') {
        winner = r;
        // An index into the array after sorting it in place names a backend of the new order.
        if (r >= 0 && r < n && r % 1 === 0) {
          try { reordered = backends[r] !== own[r]; } catch (e) { reordered = false; }
        }
      }
      else if (typeof r === 'string') {
        winner = nameIndex(r, n);
        if (winner === NO_WINNER) problem = describe(r);
      } else {
        for (let i = 0; i < n; i++) if (own[i] === r) { winner = i; break; }
        if (winner === NO_WINNER) {
          // A copy of a backend (or anything with its name) counts as that backend.
          try {
            const name = r.name;
            if (typeof name === 'string') winner = nameIndex(name, n);
            if (winner === NO_WINNER) problem = describe(r) + (typeof name === 'string' ? ' named ' + quoteCapped(name) : '');
          } catch (e) {
            problem = describe(r) + ' whose name cannot be read (reading it ' + exceptionText(e, 2) + ')';
          }
        }
      }
      f[3 * n] = winner;
      if (count === 0 && problem === null && !reordered) return done(0);
      // Joined by hand: the learner may have changed Array.prototype.
      let parts = problem !== null ? '"returned":' + quote(problem) : '';
      if (count > 0) parts += (parts ? ',' : '') + '"scores":{' + notes + '}';
      if (reordered) parts += (parts ? ',' : '') + '"reordered":true';
      return done('{' + parts + '}');
    },
    // onJoin({ name, score }): the score the backend starts with.
    join(name, score) {
      refill();
      const b = { name: name, score: score };
      try {
        apply(onJoinFn, undefined, [b]);
      } catch (e) {
        return done(threw(e));
      }
      let s, text = null;
      try {
        s = b.score;
        if (typeof s !== 'number') text = describe(s);
      } catch (e) {
        text = unreadable(e);
      }
      return done(text === null ? s : '{"scores":{"0":' + quote(text) + '}}');
    },
  };
})()`;
