import { createApp } from 'vue';
import 'slowstart/element';
import App from './App.vue';

createApp(App).mount('#app');
