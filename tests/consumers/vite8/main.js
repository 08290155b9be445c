// Vite 8 with no config file (docs/EMBEDDING.md): the package as it is; Vite
// emits its workers and .wasm files. The test builds this folder with the
// repository's own Vite 8 (a devDependency: nothing to install).
import 'slowstart/element';
import * as slowstart from 'slowstart';
import { showApi } from './show-api.js'; // (a copy of ../show-api.js: the test puts it here)

showApi(slowstart);
