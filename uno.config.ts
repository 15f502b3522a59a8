import { defineConfig, presetWind3 } from "unocss";

export default defineConfig({
  presets: [presetWind3()],
  theme: {
    colors: {
      brand: { 50: "#f0fdf4", 100: "#dcfce7", 600: "#16a34a", 700: "#15803d", 900: "#14532d" },
    },
  },
});
