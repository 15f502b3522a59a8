// @ts-check
import "@unocss/reset/tailwind.css";
import "virtual:uno.css";
import { createRoot } from "react-dom/client";
import { NaiveDashboard } from "./naive-dashboard.jsx";

createRoot(/** @type {HTMLElement} */ (document.getElementById("root"))).render(<NaiveDashboard />);
