"use client";

import { createContext, type ReactNode, useCallback, useContext, useState } from "react";

/** Says what a change on the team page did, to screen readers, and moves focus where the person can carry on. */
const AnnouncerContext = createContext<(message: string, focusId?: string) => void>(() => {});
export const useAnnounce = () => useContext(AnnouncerContext);

/** Wraps the team page: one polite live region for every result (an invite, a change, an archive). */
export function TeamAnnouncer({ children }: { children: ReactNode }) {
  const [announcement, setAnnouncement] = useState("");
  const announce = useCallback((message: string, focusId?: string) => {
    // A different string each time, so that the same result twice is announced twice.
    setAnnouncement((previous) => (previous === message ? `${message}\u00a0` : message));
    if (focusId) document.getElementById(focusId)?.focus();
  }, []);
  return (
    <AnnouncerContext value={announce}>
      {children}
      <p role="status" className="sr-only" data-testid="team-announcement">
        {announcement}
      </p>
    </AnnouncerContext>
  );
}
