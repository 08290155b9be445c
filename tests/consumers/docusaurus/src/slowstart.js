// Docusaurus runs client modules in the browser (and imports them while it
// renders pages in Node, where the element's module defines nothing).
import 'slowstart/element';
