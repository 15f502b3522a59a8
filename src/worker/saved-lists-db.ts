/** Where the data core keeps the lists it saved on this device (saved-lists.ts); tests read it to know what is saved. */
export const SAVED_LISTS_DB = "mushroom-farm-saved-lists";
export const SAVED_LISTS_STORE = "lists";
