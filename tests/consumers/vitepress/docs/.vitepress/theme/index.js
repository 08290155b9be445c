// The element is defined in the browser only (VitePress renders pages in Node first).
import DefaultTheme from 'vitepress/theme';

export default {
  extends: DefaultTheme,
  enhanceApp() {
    if (!import.meta.env.SSR) import('slowstart/element');
  },
};
