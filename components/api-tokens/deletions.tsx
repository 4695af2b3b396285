"use client";

import { createContext, type ReactNode, useCallback, useContext, useState } from "react";

/** The page's token deletions in this visit: which ids are gone, and the announcement of the last one. */
interface Deletions {
  deleted: ReadonlySet<number>;
  onDeleted: (id: number) => void;
}

const DeletionsContext = createContext<Deletions>({ deleted: new Set(), onDeleted: () => {} });
export const useDeletions = () => useContext(DeletionsContext);

/**
 * Wraps the tokens page. After a deletion the dialog and its row are gone, so focus moves to the heading of the list
 * (`focusId`) and a live region says what happened; a "copy your new token" box for that token hides itself.
 */
export function DeletionsProvider({ focusId, children }: { focusId: string; children: ReactNode }) {
  const [deleted, setDeleted] = useState<ReadonlySet<number>>(new Set());
  const [announcement, setAnnouncement] = useState("");
  const onDeleted = useCallback(
    (id: number) => {
      setDeleted((previous) => new Set(previous).add(id));
      // A fresh string each time, so that a second deletion is announced again.
      setAnnouncement((previous) => (previous === "Token deleted" ? "Token deleted\u00a0" : "Token deleted"));
      document.getElementById(focusId)?.focus();
    },
    [focusId],
  );
  return (
    <DeletionsContext value={{ deleted, onDeleted }}>
      {children}
      <p role="status" className="sr-only" data-testid="token-announcement">
        {announcement}
      </p>
    </DeletionsContext>
  );
}
