import react from "@vitejs/plugin-react";
import UnoCSS from "unocss/vite";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

/** The API server the dev server forwards to (`npm run dev:server`). */
const API = process.env.API_ORIGIN ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [
    UnoCSS(),
    react(),
    VitePWA({
      // Registered by src/ui/pwa/register-service-worker.ts (not an injected script: strict CSP).
      injectRegister: false,
      registerType: "autoUpdate",
      includeAssets: ["favicon.svg", "icons/apple-touch-icon-180.png"],
      manifest: {
        name: "Mushroom Farm",
        short_name: "Mushroom Farm",
        description: "Run your mushroom farms: MCUs, controllers, sensors, automation profiles and live readings.",
        start_url: "/dashboard",
        scope: "/",
        display: "standalone",
        orientation: "any",
        theme_color: "#14532d",
        background_color: "#f0fdf4",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
          { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
        ],
      },
      workbox: {
        // The app shell: every script, style and page; flags (257 SVGs) are cached when first shown.
        globPatterns: ["**/*.{js,css,html,webmanifest}", "favicon.svg", "icons/*.png"],
        globIgnores: ["**/*.map"],
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api\//, /^\/notifications\//, /^\/socket\.io\//],
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname.startsWith("/assets/") && url.pathname.endsWith(".svg"),
            handler: "CacheFirst",
            options: { cacheName: "flags", expiration: { maxEntries: 300 } },
          },
        ],
        // Push messages are handled in this same worker: one worker at the root, no conflict.
        importScripts: ["/push-sw.js"],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  worker: { format: "es" },
  build: {
    outDir: "dist",
    sourcemap: true,
    target: "es2022",
    // Rolldown's note on how long the plugins took (UnoCSS, PWA) is a warning on every build: nothing to act on.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    // changeOrigin false keeps the page's Host, so the API sees same-origin requests.
    proxy: {
      "/api": { target: API, changeOrigin: false },
      "/notifications": { target: API, changeOrigin: false },
      "/socket.io": { target: API, ws: true, changeOrigin: false },
    },
  },
});
