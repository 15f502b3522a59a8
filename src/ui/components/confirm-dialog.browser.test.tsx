import { useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { ConfirmProvider, useConfirm } from "./confirm-dialog.tsx";

const QUESTION = "Are you sure you want to delete this farm?";

/** A button that asks the question and shows the answer it got, as a screen would use it. */
function AskButton() {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState("none");
  return (
    <>
      <button type="button" onClick={async () => setAnswer(String(await confirm(QUESTION)))}>
        Delete farm
      </button>
      <output data-testid="answer">{answer}</output>
    </>
  );
}

describe("the confirmation dialog", () => {
  let host: HTMLDivElement;
  let root: Root;

  beforeEach(async () => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    // Real clicks and keys, as a user gives them; expect.element waits for React to commit.
    root.render(
      <ConfirmProvider>
        <AskButton />
      </ConfirmProvider>,
    );
    await expect.element(page.getByRole("button", { name: "Delete farm" })).toBeVisible();
  });
  afterEach(() => {
    root.unmount();
    host.remove();
  });

  const answer = () => page.getByTestId("answer");
  const dialog = () => page.getByRole("alertdialog", { name: QUESTION });

  async function ask() {
    await userEvent.click(page.getByRole("button", { name: "Delete farm" }));
    await expect.element(dialog()).toBeVisible();
  }

  it("shows the question as an alert dialog named by its text, with focus inside it", async () => {
    await ask();
    await expect.element(dialog()).toHaveTextContent(QUESTION);
    const box = dialog().element();
    expect(box.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.textContent).toBe("Cancel");
    await expect.element(answer()).toHaveTextContent("none");
  });

  it("answers true for OK and closes", async () => {
    await ask();
    await userEvent.click(dialog().getByRole("button", { name: "OK" }));
    await expect.element(answer()).toHaveTextContent("true");
    await expect.element(page.getByRole("alertdialog")).not.toBeInTheDocument();
  });

  it("answers false for Cancel", async () => {
    await ask();
    await userEvent.click(dialog().getByRole("button", { name: "Cancel" }));
    await expect.element(answer()).toHaveTextContent("false");
    await expect.element(page.getByRole("alertdialog")).not.toBeInTheDocument();
  });

  it("answers false for Escape", async () => {
    await ask();
    await userEvent.keyboard("{Escape}");
    await expect.element(answer()).toHaveTextContent("false");
    await expect.element(page.getByRole("alertdialog")).not.toBeInTheDocument();
  });

  it("can be answered from the keyboard alone", async () => {
    await ask();
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe("OK");
    await userEvent.keyboard("{Enter}");
    await expect.element(answer()).toHaveTextContent("true");
  });
});
