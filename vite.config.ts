import react from "@vitejs/plugin-react";
import UnoCSS from "unocss/vite";
import { defineConfig } from "vite";

/** The API server the dev server forwards to (`npm run dev:server`). */
const API = process.env.API_ORIGIN ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [UnoCSS(), react()],
  worker: { format: "es" },
  build: { outDir: "dist", sourcemap: true, target: "es2022" },
  server: {
    // changeOrigin false keeps the page's Host, so the API sees same-origin requests.
    proxy: {
      "/api": { target: API, changeOrigin: false },
      "/notifications": { target: API, changeOrigin: false },
      "/socket.io": { target: API, ws: true, changeOrigin: false },
    },
  },
});
