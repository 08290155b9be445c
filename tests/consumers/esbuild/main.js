// esbuild (docs/EMBEDDING.md): it does not rewrite new URL(…, import.meta.url),
// so the package's dist/ is copied next to the bundle (slowstart/), the API
// is told where the .wasm is, and the element is loaded from the copy.
// Built with the repository's own esbuild (a devDependency).
import * as slowstart from 'slowstart';
import { showApi } from './show-api.js'; // (a copy of ../show-api.js: the test puts it here)

showApi(slowstart, { locateFile: (file) => new URL(`./slowstart/wasm/${file}`, import.meta.url).href });
