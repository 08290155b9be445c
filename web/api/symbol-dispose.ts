// Types for `using` where the user's TypeScript lib lacks them (before
// "esnext.disposable": today's Vite and Next templates stop at ES2022 or
// ES2020), the way @types/node declares them: `Symbol.dispose` for
// Balancer's [Symbol.dispose], and the global `Disposable` that TypeScript
// 5.2+ asks for when it checks `using b = slowstart.createBalancer()`
// (TS2318 without it). Merging is harmless where the lib has them too.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
  interface Disposable {
    [Symbol.dispose](): void;
  }
  interface AsyncDisposable {
    [Symbol.asyncDispose](): PromiseLike<void>;
  }
}

export {};
