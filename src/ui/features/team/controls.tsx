// A .tsx file: UnoCSS reads class names from the app's .tsx files, not from plain .ts.
/**
 * The team screens' form controls: at least 48 px high, a thumb's size on a phone, and larger type
 * on a wall screen; red while their field is refused.
 */
export const controlClass = (invalid = false, { wall = true }: { /** False inside a frame zoomed whole on a wall (Join's card). */ wall?: boolean } = {}) =>
  `block w-full min-h-12 rounded-lg border ${invalid ? "border-red-500 focus:border-red-600 focus:ring-red-500/30" : "border-gray-300 focus:border-brand-600 focus:ring-brand-600/30"} bg-white px-3 py-2 ${wall ? "4xl:px-4 4xl:text-xl" : ""} text-gray-900 placeholder-gray-400 focus:outline-none focus:ring-2 disabled:bg-gray-100 disabled:text-gray-600`;

/** A button at touch size, and larger on a wall screen. */
export const touch = "min-h-12 4xl:text-xl 4xl:px-6";
