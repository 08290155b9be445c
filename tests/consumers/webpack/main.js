// webpack 5, defaults (docs/EMBEDDING.md): the package as it is; webpack
// emits its workers and .wasm files. Built with the repository's own
// webpack (a devDependency: nothing to install).
import 'slowstart/element';
import * as slowstart from 'slowstart';
import { showApi } from './show-api.js'; // (a copy of ../show-api.js: the test puts it here)

showApi(slowstart);
