import { defineConfig, presetWind3 } from "unocss";

export default defineConfig({
  presets: [presetWind3()],
  preflights: [
    {
      // A farmer who asks the system for less motion gets none: the drawer, panels and switches
      // move at once instead of sliding.
      getCSS: () => "@media (prefers-reduced-motion: reduce) { *, ::before, ::after { transition-duration: 0s !important; transition-delay: 0s !important; scroll-behavior: auto !important; } }",
    },
  ],
  theme: {
    colors: {
      brand: { 50: "#f0fdf4", 100: "#dcfce7", 200: "#bbf7d0", 500: "#22c55e", 600: "#16a34a", 700: "#15803d", 800: "#166534", 900: "#14532d" },
    },
    breakpoints: { sm: "640px", md: "768px", lg: "1024px", xl: "1280px", "2xl": "1536px", "3xl": "1920px", "4xl": "2560px" },
  },
  shortcuts: {
    "btn-base":
      "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60 disabled:cursor-not-allowed",
    "btn-primary": "btn-base bg-brand-700 text-white hover:bg-brand-800",
    "btn-secondary": "btn-base bg-white text-gray-800 border border-gray-300 hover:bg-gray-50",
    "btn-danger": "btn-base bg-red-600 text-white hover:bg-red-700",
    "icon-btn": "inline-flex items-center justify-center rounded-lg p-2 text-gray-600 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-600",
    card: "bg-white rounded-2xl border border-gray-200 shadow-sm",
    // A line whose text changes with every reading: sized by its class (give it a height), not by
    // its text, so a new value lays out this line alone and not the card, the grid and the page.
    "live-line": "block whitespace-nowrap [contain:size_layout_style]",
  },
});
