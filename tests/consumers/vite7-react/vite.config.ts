// React 19 on Vite 7: the plugin, nothing for slowstart (docs/EMBEDDING.md).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [react()] });
