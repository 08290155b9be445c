// Vue 3 on Vite 6: the element is a custom element, not a Vue component (docs/EMBEDDING.md).
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'slow-start-runner' } } })],
});
