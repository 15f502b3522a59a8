/** How a battery level is shown (its colour, its whole percent): the core's view compares levels the same way. */
export { batteryColor, sameShownBattery, shownBattery, type BatteryColor } from "../../../streams/mcu-manager-view.ts";
