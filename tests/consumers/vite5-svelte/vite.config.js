// Svelte 5 on Vite 5: the plugin, nothing for slowstart (docs/EMBEDDING.md).
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [svelte()] });
