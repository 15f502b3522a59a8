/** SPEC §2 Last Seen in words: computed in the data core with the card's view (src/streams/mcu-manager-view.ts). */
export { formatLastSeen } from "../../../streams/mcu-manager-view.ts";
