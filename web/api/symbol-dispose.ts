// Types for `Symbol.dispose` where the user's TypeScript lib lacks it (before
// "esnext.disposable"), the way @types/node declares it: merging is harmless
// when the lib has it too. Without this, Balancer's [Symbol.dispose] would
// not type-check for users on plain ES2022 libs.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

export {};
