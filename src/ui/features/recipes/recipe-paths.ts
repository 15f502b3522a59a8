/** The recipe editor's address: a new recipe, or a saved one by its id. */
export const recipePath = (recipeId: number | "new") => `/recipes/${recipeId}`;
