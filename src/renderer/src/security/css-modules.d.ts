// Vite bundles imported stylesheets; TypeScript only needs to know the import is allowed.
declare module '*.css';
