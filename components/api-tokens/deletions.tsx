"use client";

import { createContext, type ReactNode, useCallback, useContext, useState } from "react";

/** The page's token deletions in this visit: which ids are gone, and the announcement of the last one. */
interface Deletions {
  deleted: ReadonlySet<number>;
  /** Records the deletion, announces `message` and moves focus to the element `focusId`. */
  onDeleted: (id: number, message: string, focusId: string) => void;
}

const DeletionsContext = createContext<Deletions>({ deleted: new Set(), onDeleted: () => {} });
export const useDeletions = () => useContext(DeletionsContext);

/**
 * Wraps the tokens page. After a deletion the dialog and its row are gone, so focus moves to the heading of the list
 * and a notice, seen and announced (a live region), says what happened; a "copy your new token" box for that token
 * hides itself.
 */
export function DeletionsProvider({ children }: { children: ReactNode }) {
  const [deleted, setDeleted] = useState<ReadonlySet<number>>(new Set());
  const [announcement, setAnnouncement] = useState("");
  const onDeleted = useCallback((id: number, message: string, focusId: string) => {
    setDeleted((previous) => new Set(previous).add(id));
    // A different string each time, so that a second deletion is announced again.
    setAnnouncement((previous) => (previous === message ? `${message}\u00a0` : message));
    document.getElementById(focusId)?.focus();
  }, []);
  return (
    <DeletionsContext value={{ deleted, onDeleted }}>
      {children}
      <p
        role="status"
        data-testid="token-announcement"
        className={
          announcement
            ? "fixed inset-x-4 bottom-4 mx-auto max-w-md rounded-lg bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
            : "sr-only"
        }
      >
        {announcement}
      </p>
    </DeletionsContext>
  );
}
