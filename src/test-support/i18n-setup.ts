import { startTexts } from "./i18n.ts";

// Components under test read their texts from the catalogue, as in the app.
await startTexts();
