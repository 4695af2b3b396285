import type { Metadata } from "next";
import "./globals.css";

// Every page renders per request: Next puts the request's CSP nonce (proxy.ts) on its script tags only then.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Client, Job and Time Tracking",
  description: "Clients, jobs and time for accounting firms, with an API.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
