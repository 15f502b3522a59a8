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
    proxy: {
      "/api": API,
      "/notifications": API,
      "/socket.io": { target: API, ws: true },
    },
  },
});
